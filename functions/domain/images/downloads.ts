import { verifyDownloadToken } from '../jobs/download-token';
import type { Clock } from '../shared/clock';

/** How long the redirect target lives: enough to start the download, not to share it. */
export const PRESIGNED_URL_SECONDS = 300;

export const presignDownload = async (
  deps: {
    clock: Clock;
    downloadSecret: () => Promise<string>;
    objects: { presignGet(key: string, expiresInSeconds: number): Promise<string> };
  },
  token: string,
): Promise<string> => {
  const grant = verifyDownloadToken(token, await deps.downloadSecret(), deps.clock());
  return deps.objects.presignGet(grant.objectKey, PRESIGNED_URL_SECONDS);
};
