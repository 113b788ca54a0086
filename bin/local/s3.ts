import fs from 'node:fs';
import type { AddressInfo } from 'node:net';

// s3rver ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver: new (options: Record<string, unknown>) => { run(): Promise<AddressInfo>; close(): Promise<void> } = require('s3rver');

export interface LocalS3 {
  endpoint: string;
  close(): Promise<void>;
}

/**
 * s3rver on disk. The service's S3 client must use path-style addressing, checksums only when
 * required, and Buffers (DESIGN.md §2): newer SDK checksums otherwise store corrupted objects here.
 */
export const startLocalS3 = async (options: { dataDir: string; bucket: string; port?: number; host?: string }): Promise<LocalS3> => {
  fs.mkdirSync(options.dataDir, { recursive: true });
  const host = options.host ?? '127.0.0.1';
  const server = new S3rver({
    address: host,
    port: options.port ?? 0,
    silent: true,
    directory: options.dataDir,
    configureBuckets: [{ name: options.bucket, configs: [] }],
  });
  const address = await server.run();
  return { endpoint: `http://${host}:${address.port}`, close: () => server.close() };
};
