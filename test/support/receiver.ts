import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCallback {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A callback receiver on loopback that answers with the statuses it is given, in order (the last repeats). */
export const startReceiver = async (statuses: number[]) => {
  const received: ReceivedCallback[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server = http.createServer((req, res) => {
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
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    /** Resolves once `count` requests have arrived. */
    waitFor: (count: number) => (received.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }))),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
