/** What every hosted-provider adapter is built from: the route's model, where the provider is, its key, the references. */
import type { SharedOwner } from '../../s3/shared-inputs';
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

/** The candidates' reference crops (CandidateFace.referenceKeys), as bytes or as short-lived URLs for a backend. */
export interface ReferenceImages {
  load(key: string): Promise<Buffer>;
  url(key: string): Promise<string>;
  /**
   * Stores bytes (a caller's input image, a profile's crop or contact sheet) under `inputs/shared/`, scoped
   * to `owner` (the account, and the profile or else the job: s3/shared-inputs.ts), and answers a
   * short-lived presigned GET URL: for providers that take inputs by URL (fal).
   */
  share(data: Buffer, contentType: string, owner: SharedOwner): Promise<string>;
}

/** The job a request's work is for: its workKey is the job id, or `<job id>:<suffix>` for a retry's own work. */
export const jobIdOf = (workKey: string): string => workKey.split(':')[0] ?? workKey;
