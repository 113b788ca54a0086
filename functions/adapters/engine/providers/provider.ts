/** What every hosted-provider adapter is built from: the route's model, where the provider is, its key, the references. */
import type { EngineRequest } from '../../../domain/engine/engine';
import type { SharedOwner } from '../../s3/shared-inputs';
import type { ProviderAnswer, ProviderTransport } from './provider-http';

export interface ProviderEngineOptions {
  /** The provider's model (from the route), e.g. gpt-image-2, gemini-3.1-flash-image, fal-ai/flux-2. */
  model: string;
  /** e.g. https://api.openai.com/v1 (a development double's loopback URL locally). */
  baseUrl: string;
  /** The provider's API key (Secrets Manager on AWS, the environment locally), cached a few minutes. */
  apiKey: ApiKey;
  /** Where provider outputs may be downloaded from (fal answers URLs); absent: the provider's own hosts only. */
  media?: MediaPolicy;
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

/**
 * The most a request may have cost at its provider when the answer was lost after the provider may have
 * started the work (possible-cost.ts), from the adapter's price table; undefined where it cannot be known.
 */
export type PossibleCost = (
  model: string,
  request: Pick<EngineRequest, 'width' | 'height' | 'numOutputImages'> &
    Partial<Pick<EngineRequest, 'candidates' | 'namedInPrompt' | 'images'>>,
) => number | undefined;

/** The job a request's work is for: its workKey is the job id, or `<job id>:<suffix>` for a retry's own work. */
export const jobIdOf = (workKey: string): string => workKey.split(':')[0] ?? workKey;

/**
 * A provider's API key as the adapters read it: cached (PROVIDER_KEY_CACHE_SECONDS), and `refresh` reads it
 * again at once, for a provider that refused it (the key was rotated since it was cached).
 */
export type ApiKey = (() => Promise<string>) & { refresh?: () => Promise<string> };

/** Where a provider's output files may come from: hosts (`*.` for subdomains) and, in development, loopback. */
export interface MediaPolicy {
  hosts: readonly string[];
  /** ALLOW_LOOPBACK_URLS: loopback hosts and the configured queue's host are allowed too (the local doubles). */
  allowLoopback: boolean;
}

/** 401 and 403: the provider refused the key (revoked, rotated), not the request. */
export const refusedKey = (answer: ProviderAnswer): boolean => answer.status === 401 || answer.status === 403;

/**
 * One provider call with the key: when the provider refuses the key, it is read again once and, if it
 * changed (rotated since it was cached), the call is made once more with the new one; otherwise the
 * refusal stands and the job fails as before. A refused key means the work was not done, so the second
 * call cannot make the provider do it twice.
 */
export const withApiKey = async (
  apiKey: ApiKey,
  call: (key: string) => Promise<ProviderAnswer>,
  refused: (answer: ProviderAnswer) => boolean = refusedKey,
): Promise<ProviderAnswer> => {
  const key = await apiKey();
  const answer = await call(key);
  if (!refused(answer) || !apiKey.refresh) return answer;
  const fresh = await apiKey.refresh();
  return fresh === key ? answer : call(fresh);
};
