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

export const clientOptions = (region: string, endpoint: string | undefined) => ({
  region,
  ...(endpoint ? { endpoint, credentials: localCredentials() } : {}),
});
