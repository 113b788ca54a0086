/** Secrets given directly (local) or as Secrets Manager secrets (AWS): read once per process; a provider's key and Stripe's secrets a few minutes. */
import { lazySecret, type SecretReader } from '../adapters/secrets';
import { PROVIDER_ENV } from '../deployment/env-names';
import type { HostedProviderId } from '../deployment/providers';
import { currentProviderKey } from '../deployment/settings';
import { once, settings } from './core';

/** A secret by value or ARN; fails on use when neither is set. `maxAgeMs`: read again after that long. */
export const secret = (
  value: string | undefined,
  arn: string | undefined,
  name: string,
  maxAgeMs?: number,
): SecretReader =>
  lazySecret({
    value: value || undefined,
    arn,
    region: settings().AWS_REGION,
    endpoint: settings().SECRETS_MANAGER_ENDPOINT,
    name,
    maxAgeMs,
  });

/** A secret by value or ARN; undefined when neither is set (the feature it serves is not configured). */
export const secretIfSet = (
  value: string | undefined,
  arn: string | undefined,
  name: string,
  maxAgeMs?: number,
): SecretReader | undefined => (value || arn ? secret(value, arn, name, maxAgeMs) : undefined);

/** How long a rotatable key is kept before it is read again (the providers' keys, and Stripe's two secrets). */
export const keyCacheMs = (): number => settings()[PROVIDER_ENV.providerKeyCacheSeconds] * 1000;

/** A token by value or ARN; empty when neither is set. */
export const secretOrEmpty = (value: string, arn: string | undefined, name: string): (() => Promise<string>) =>
  value || arn ? secret(value, arn, name) : async () => '';

/**
 * A hosted provider's key: by value (the environment, read again each time, locally) or by ARN (AWS), kept
 * for PROVIDER_KEY_CACHE_SECONDS and read again at once when the provider refuses it (providers/provider.ts).
 */
export const providerKey = (id: HostedProviderId, name: string): SecretReader =>
  lazySecret({
    value: () => currentProviderKey(id) || undefined,
    arn: settings().providers[id].keySecretArn,
    region: settings().AWS_REGION,
    endpoint: settings().SECRETS_MANAGER_ENDPOINT,
    name,
    maxAgeMs: keyCacheMs(),
  });

/** Our own key: download links and the token in a queued provider's webhook URL are signed with it. */
export const downloadSecret = once(() =>
  secret(settings().DOWNLOAD_TOKEN_SECRET, settings().DOWNLOAD_TOKEN_SECRET_ARN, 'the download token secret'),
);
