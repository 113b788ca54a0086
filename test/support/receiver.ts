import fs from 'node:fs';
import type http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

const TLS_DIR = path.join(__dirname, '../fixtures/tls');
/** The receiver's certificate, which test runtimes trust (EXTRA_TRUSTED_CA_FILE): callback URLs are https. */
export const RECEIVER_CA_FILE = path.join(TLS_DIR, 'receiver-cert.pem');

export interface ReceivedCallback {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** An https callback receiver on loopback that answers with the statuses it is given, in order (the last repeats). */
export const startReceiver = async (statuses: number[]) => {
  const received: ReceivedCallback[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const tls = { key: fs.readFileSync(path.join(TLS_DIR, 'receiver-key.pem')), cert: fs.readFileSync(RECEIVER_CA_FILE) };
  const server = https.createServer(tls, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(statuses[Math.min(received.length - 1, statuses.length - 1)]!).end();
      for (const waiter of waiters.filter((w) => received.length >= w.count)) waiter.resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    /** Resolves once `count` requests have arrived. */
    waitFor: (count: number) =>
      received.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve })),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** An https receiver on loopback that takes every callback and never answers (until closed). */
export const startHangingReceiver = async () => {
  let requests = 0;
  const tls = { key: fs.readFileSync(path.join(TLS_DIR, 'receiver-key.pem')), cert: fs.readFileSync(RECEIVER_CA_FILE) };
  const server = https.createServer(tls, () => {
    requests += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/hangs`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
