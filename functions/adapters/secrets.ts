import type * as SecretsManager from '@aws-sdk/client-secrets-manager';
import { clientOptions, onFirstUse } from './aws-clients';

const sdk = onFirstUse(() => require('@aws-sdk/client-secrets-manager') as typeof SecretsManager);

/** A secret's reader: the value, cached; `refresh` reads it again at once (after a refusal of the cached one). */
export type SecretReader = (() => Promise<string>) & { refresh: () => Promise<string> };

/**
 * A secret given directly (tests, local) or by Secrets Manager ARN (AWS, and the local runtime's stand-in
 * at `endpoint`). Read on first use and then kept: for good, or for `maxAgeMs` when given, after which the
 * next use reads it again. `value` may be a function, read each time the secret is (a setting that can
 * change while the process runs). A failed read is not kept.
 */
export const lazySecret = (options: {
  value?: string | (() => string | undefined);
  arn?: string;
  region: string;
  endpoint?: string;
  name: string;
  maxAgeMs?: number;
  now?: () => number;
}): SecretReader => {
  const now = options.now ?? Date.now;
  let pending: Promise<string> | undefined;
  let readAt = 0;
  let refreshing: Promise<string> | undefined;
  const read = async (): Promise<string> => {
    const value = typeof options.value === 'function' ? options.value() : options.value;
    if (value) return value;
    if (!options.arn) throw new Error(`${options.name} is not configured`);
    const { GetSecretValueCommand, SecretsManagerClient } = sdk();
    const client = new SecretsManagerClient(clientOptions(options.region, options.endpoint));
    try {
      const result = await client.send(new GetSecretValueCommand({ SecretId: options.arn }));
      if (!result.SecretString) throw new Error(`${options.name} has no string value`);
      return result.SecretString;
    } finally {
      client.destroy();
    }
  };
  const get = (): Promise<string> => {
    if (pending && options.maxAgeMs !== undefined && now() - readAt >= options.maxAgeMs) pending = undefined;
    if (!pending) {
      readAt = now();
      const reading = read().catch((error: unknown) => {
        if (pending === reading) pending = undefined;
        throw error;
      });
      pending = reading;
    }
    return pending;
  };
  // Concurrent refusals of one key (several calls in flight) read it again once.
  const refresh = (): Promise<string> =>
    (refreshing ??= (async () => {
      pending = undefined;
      return get();
    })().finally(() => {
      refreshing = undefined;
    }));
  return Object.assign(get, { refresh });
};
