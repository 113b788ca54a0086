/**
 * Options shared by the SDK clients: the region, and on the local runtime its endpoint. Locally the
 * credentials are the environment's key when it has one (under `npm run start:assets` each function's
 * worker signs with a key naming the function, and the stand-ins apply that function's IAM policies:
 * bin/local-aws/iam.ts), else a dummy one. On AWS neither applies: the default chain finds the role.
 */
export const localCredentials = () => ({
  accessKeyId: process.env.AWS_ACCESS_KEY_ID || 'local',
  secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY || 'local',
});

/**
 * An SDK package loaded the first time it is used rather than when a function starts. After the shared
 * core (which DynamoDB, used by every function, loads anyway) each client package costs 6-13 ms to load
 * (`npm run bench -- assets`), so a function loads SQS, Step Functions and Secrets Manager only once a
 * request reaches them (the client objects are made on first use too: composition's `once`). `load` must
 * be a literal `require('@aws-sdk/…')`: the SDK is external to the bundles (the Lambda runtime's), so
 * esbuild leaves the require as it is; types come from `import type`, which loads nothing.
 */
export const onFirstUse = <T>(load: () => T): (() => T) => {
  let loaded: T | undefined;
  return () => {
    loaded ??= load();
    return loaded;
  };
};

export const clientOptions = (region: string, endpoint: string | undefined) => ({
  region,
  ...(endpoint ? { endpoint, credentials: localCredentials() } : {}),
});
