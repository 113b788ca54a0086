/** Options shared by the SDK clients: the region, and on the local runtime its endpoint with dummy credentials. */
export const clientOptions = (region: string, endpoint: string | undefined) => ({
  region,
  ...(endpoint ? { endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
});
