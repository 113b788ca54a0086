import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { clientOptions } from './aws-clients';

/**
 * A secret given directly (tests) or by Secrets Manager ARN (AWS, and the local runtime's stand-in at
 * `endpoint`), read once per process and then kept.
 */
export const lazySecret = (options: {
  value?: string;
  arn?: string;
  region: string;
  endpoint?: string;
  name: string;
}): (() => Promise<string>) => {
  let pending: Promise<string> | undefined;
  return () =>
    (pending ??= (async () => {
      if (options.value) return options.value;
      if (!options.arn) throw new Error(`${options.name} is not configured`);
      const client = new SecretsManagerClient(clientOptions(options.region, options.endpoint));
      try {
        const result = await client.send(new GetSecretValueCommand({ SecretId: options.arn }));
        if (!result.SecretString) throw new Error(`${options.name} has no string value`);
        return result.SecretString;
      } finally {
        client.destroy();
      }
    })().catch((error: unknown) => {
      pending = undefined;
      throw error;
    }));
};
