/** What every hosted-provider adapter is built from: the route's model, where the provider is, its key, the references. */
import type { ReferenceImages } from '../engines';
import type { ProviderTransport } from './provider-http';

export interface ProviderEngineOptions {
  /** The provider's model (from the route), e.g. gpt-image-2, gemini-3.1-flash-image, fal-ai/flux-2. */
  model: string;
  /** e.g. https://api.openai.com/v1 (a development double's loopback URL locally). */
  baseUrl: string;
  /** The provider's API key, read once per container (Secrets Manager on AWS, the environment locally). */
  apiKey: () => Promise<string>;
  /** The candidates' reference crops: bytes (inline providers) or short-lived URLs (fal). */
  references: ReferenceImages;
  transport?: Partial<ProviderTransport>;
}
