/** Secrets given directly (local) or as Secrets Manager secrets (AWS), read once per process. */
import { lazySecret } from '../adapters/secrets';
import { settings } from './core';

/** A secret by value or ARN; fails on use when neither is set. */
export const secret = (value: string | undefined, arn: string | undefined, name: string): (() => Promise<string>) =>
  lazySecret({
    value: value || undefined,
    arn,
    region: settings().AWS_REGION,
    endpoint: settings().SECRETS_MANAGER_ENDPOINT,
    name,
  });

/** A token by value or ARN; empty when neither is set. */
export const secretOrEmpty = (value: string, arn: string | undefined, name: string): (() => Promise<string>) =>
  value || arn ? secret(value, arn, name) : async () => '';
