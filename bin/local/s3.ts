import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AccessDenied, listenFront, type IamGate } from './iam';
import { s3Requests } from './iam-requests';

// s3rver ships no types.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver: new (options: Record<string, unknown>) => { run(): Promise<AddressInfo>; close(): Promise<void> } = require('s3rver');

export interface LocalS3 {
  endpoint: string;
  close(): Promise<void>;
}

// s3rver knows one access key (S3RVER) and refuses others, though it checks no SigV4 signature. The
// service's clients sign with the environment's key (a function's own under start:assets, for the IAM
// gate), so every key is taken as s3rver's one account.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rverAccount = require('s3rver/lib/models/account') as { registry: Map<string, unknown>; DUMMY_ACCOUNT: unknown };
const knownKey = Map.prototype.get.bind(S3rverAccount.registry);
S3rverAccount.registry.get = (accessKeyId: string) => knownKey(accessKeyId) ?? S3rverAccount.DUMMY_ACCOUNT;

/**
 * s3rver on disk. The service's S3 client must use path-style addressing, checksums only when
 * required, and Buffers (DESIGN.md §2): newer SDK checksums otherwise store corrupted objects here.
 */
export const startLocalS3 = async (options: { dataDir: string; bucket: string; port?: number; host?: string; gate?: IamGate }): Promise<LocalS3> => {
  fs.mkdirSync(options.dataDir, { recursive: true });
  const host = options.host ?? '127.0.0.1';
  const server = new S3rver({
    address: host,
    port: options.gate ? 0 : (options.port ?? 0),
    silent: true,
    directory: options.dataDir,
    configureBuckets: [{ name: options.bucket, configs: [] }],
  });
  const address = await server.run();
  if (!options.gate) return { endpoint: `http://${host}:${address.port}`, close: () => server.close() };
  const front = await startGateProxy({ host, port: options.port, backendPort: address.port, gate: options.gate });
  return {
    endpoint: front.endpoint,
    close: async () => {
      await front.close();
      await server.close();
    },
  };
};

/**
 * In front of s3rver when IAM is checked: every call is put to the gate with the action and resource S3
 * would authorise it by, then passed through unchanged (a multi-object delete is read first, for its keys).
 */
const startGateProxy = async (options: { host: string; port?: number; backendPort: number; gate: IamGate }) => {
  const agent = new http.Agent({ keepAlive: true });
  const pass = (req: http.IncomingMessage, res: http.ServerResponse, body?: Buffer) => {
    const upstream = http.request({ host: options.host, port: options.backendPort, method: req.method, path: req.url, headers: req.headers, agent }, (response) => {
      res.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(res);
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    if (body) upstream.end(body);
    else req.pipe(upstream);
  };
  const check = (req: http.IncomingMessage, res: http.ServerResponse, body?: Buffer): boolean => {
    try {
      options.gate.authorize(req, s3Requests(req.method ?? 'GET', new URL(req.url ?? '/', 'http://local'), body));
      return true;
    } catch (error) {
      if (!(error instanceof AccessDenied)) throw error;
      res.writeHead(403, { 'Content-Type': 'application/xml' });
      res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>${error.message.replace(/[<&]/g, ' ')}</Message></Error>`);
      return false;
    }
  };
  const server = http.createServer((req, res) => {
    if (req.method === 'POST') {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        if (check(req, res, body)) pass(req, res, body);
      });
      return;
    }
    if (check(req, res)) pass(req, res);
  });
  return listenFront(server, options, agent);
};
