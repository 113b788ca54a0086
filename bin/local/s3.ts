/**
 * S3 for the local runtime: the REST calls the service makes (path-style PutObject, GetObject,
 * HeadObject, DeleteObject, ListObjectsV2, DeleteObjects) and the presigned GET and PUT links it hands
 * out, answered as S3 answers them (XML errors, ETag, Last-Modified). Objects are files under the data
 * directory, one per object, with a small metadata file beside it; an index of every object is kept in
 * memory, so a request touches the disk once. A restart keeps everything. With the artefacts, every call
 * is first checked against the calling function's IAM policies (bin/local/iam.ts).
 * The service's S3 client uses path-style addressing and checksums only when required (DESIGN.md §2).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { AccessDenied, type IamGate } from './iam';
import { s3Requests } from './iam-requests';

export interface LocalS3 {
  endpoint: string;
  close(): Promise<void>;
}

interface ObjectMeta {
  key: string;
  size: number;
  etag: string;
  contentType: string;
  lastModified: number;
}

const XMLNS = 'http://s3.amazonaws.com/doc/2006-03-01/';
const MAX_LIST_KEYS = 1000;

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const unescapeXml = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly resource = '',
  ) {
    super(message);
  }
}

/** The objects of one bucket: files named by the hash of their key, and their metadata in memory. */
class Bucket {
  private readonly index = new Map<string, ObjectMeta>();

  constructor(
    readonly name: string,
    private readonly dir: string,
  ) {
    fs.mkdirSync(dir, { recursive: true });
    for (const file of fs.readdirSync(dir)) {
      if (!file.endsWith('.json')) continue;
      try {
        const meta = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as ObjectMeta;
        if (fs.existsSync(this.bodyFile(meta.key))) this.index.set(meta.key, meta);
      } catch {
        // Metadata torn by a crash mid-write: that put never answered, so the object never existed.
      }
    }
  }

  private fileOf(key: string): string {
    return path.join(this.dir, createHash('sha256').update(key).digest('hex'));
  }

  private bodyFile(key: string): string {
    return `${this.fileOf(key)}.object`;
  }

  /**
   * The body first, then the metadata that makes it visible: a crash between the two leaves no object.
   * The files are written off the event loop (libuv's pool), so a put costs the loop no file system time.
   */
  async put(key: string, body: Buffer, contentType: string): Promise<ObjectMeta> {
    const meta: ObjectMeta = { key, size: body.length, etag: `"${createHash('md5').update(body).digest('hex')}"`, contentType, lastModified: Date.now() };
    await fs.promises.writeFile(this.bodyFile(key), body);
    await fs.promises.writeFile(`${this.fileOf(key)}.json`, JSON.stringify(meta));
    this.index.set(key, meta);
    return meta;
  }

  head(key: string): ObjectMeta | undefined {
    return this.index.get(key);
  }

  async read(key: string): Promise<{ meta: ObjectMeta; body: Buffer } | undefined> {
    const meta = this.index.get(key);
    if (!meta) return undefined;
    try {
      return { meta, body: await fs.promises.readFile(this.bodyFile(key)) };
    } catch (error) {
      // Deleted while it was being read: as S3 answers a read that lands after a delete.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  /** Gone from the index at once (no reader sees it after), then from the disk, metadata first. */
  async delete(key: string): Promise<void> {
    if (!this.index.delete(key)) return;
    await fs.promises.rm(`${this.fileOf(key)}.json`, { force: true });
    await fs.promises.rm(this.bodyFile(key), { force: true });
  }

  /** Keys in UTF-8 binary order, as S3 lists them. */
  list(prefix: string, after: string, max: number): { objects: ObjectMeta[]; truncated: boolean } {
    const keys = [...this.index.keys()].filter((key) => key.startsWith(prefix) && Buffer.compare(Buffer.from(key), Buffer.from(after)) > 0);
    keys.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return { objects: keys.slice(0, max).map((key) => this.index.get(key)!), truncated: keys.length > max };
  }
}

/** A data directory s3rver kept (`<dir>/<bucket>/<key>._S3rver_object`): its objects are copied in once, the rest moved aside. */
const importS3rverData = async (dataDir: string, bucketName: string, bucket: Bucket): Promise<void> => {
  const old = path.join(dataDir, bucketName);
  if (!fs.existsSync(old)) return;
  const walk = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
  for (const file of walk(old).filter((name) => name.endsWith('._S3rver_object'))) {
    const key = path.relative(old, file).slice(0, -'._S3rver_object'.length).split(path.sep).join('/');
    let contentType = 'application/octet-stream';
    try {
      const metadata = JSON.parse(fs.readFileSync(file.replace(/\._S3rver_object$/, '._S3rver_metadata.json'), 'utf8')) as Record<string, string>;
      contentType = metadata['content-type'] ?? contentType;
    } catch {
      // No metadata: S3's default type.
    }
    await bucket.put(key, fs.readFileSync(file), contentType);
  }
  fs.renameSync(old, `${old}.s3rver`);
};

export const startLocalS3 = async (options: { dataDir: string; bucket: string; port?: number; host?: string; gate?: IamGate }): Promise<LocalS3> => {
  const host = options.host ?? '127.0.0.1';
  const bucket = new Bucket(options.bucket, path.join(options.dataDir, 'objects', options.bucket));
  await importS3rverData(options.dataDir, options.bucket, bucket);

  const sendError = (res: http.ServerResponse, error: S3Error, method: string) => {
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.code}</Code><Message>${escapeXml(error.message)}</Message>${error.resource ? `<Key>${escapeXml(error.resource)}</Key>` : ''}<RequestId>local</RequestId></Error>`;
    res.writeHead(error.status, { 'Content-Type': 'application/xml', 'Content-Length': method === 'HEAD' ? 0 : Buffer.byteLength(body), 'x-amz-request-id': 'local' });
    res.end(method === 'HEAD' ? undefined : body);
  };
  const sendXml = (res: http.ServerResponse, xml: string) => {
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n${xml}`;
    res.writeHead(200, { 'Content-Type': 'application/xml', 'Content-Length': Buffer.byteLength(body), 'x-amz-request-id': 'local' });
    res.end(body);
  };

  /** A presigned link is refused once it has expired, as S3 refuses it. */
  const refuseExpired = (url: URL) => {
    const signedAt = url.searchParams.get('X-Amz-Date');
    const expires = url.searchParams.get('X-Amz-Expires');
    if (!signedAt || !expires) return;
    const at = Date.parse(signedAt.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
    if (Number.isNaN(at) || Date.now() > at + Number(expires) * 1000) throw new S3Error(403, 'AccessDenied', 'Request has expired');
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: Buffer): Promise<void> => {
    const method = req.method ?? 'GET';
    const [bucketName, ...rest] = url.pathname.replace(/^\//, '').split('/');
    const key = rest.map(decodeURIComponent).join('/');
    if (decodeURIComponent(bucketName ?? '') !== bucket.name) throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist', bucketName);
    refuseExpired(url);
    options.gate?.authorize(req, s3Requests(method, url, body));

    if (!key) {
      if (method === 'GET' && url.searchParams.get('list-type') === '2') {
        const prefix = url.searchParams.get('prefix') ?? '';
        const token = url.searchParams.get('continuation-token');
        const after = token ? Buffer.from(token, 'base64url').toString('utf8') : (url.searchParams.get('start-after') ?? '');
        const max = Math.min(MAX_LIST_KEYS, Number(url.searchParams.get('max-keys') ?? MAX_LIST_KEYS));
        const { objects, truncated } = bucket.list(prefix, after, max);
        const contents = objects
          .map((object) => `<Contents><Key>${escapeXml(object.key)}</Key><LastModified>${new Date(object.lastModified).toISOString()}</LastModified><ETag>${escapeXml(object.etag)}</ETag><Size>${object.size}</Size><StorageClass>STANDARD</StorageClass></Contents>`)
          .join('');
        const next = truncated ? `<NextContinuationToken>${Buffer.from(objects[objects.length - 1]!.key).toString('base64url')}</NextContinuationToken>` : '';
        return sendXml(
          res,
          `<ListBucketResult xmlns="${XMLNS}"><Name>${bucket.name}</Name><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${objects.length}</KeyCount><MaxKeys>${max}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${token ? `<ContinuationToken>${token}</ContinuationToken>` : ''}${next}${contents}</ListBucketResult>`,
        );
      }
      if (method === 'POST' && url.searchParams.has('delete')) {
        const text = body.toString('utf8');
        const keys = [...text.matchAll(/<Key>([^<]*)<\/Key>/g)].map((match) => unescapeXml(match[1]!));
        if (keys.length > 1000) throw new S3Error(400, 'MalformedXML', 'The XML you provided was not well-formed or did not validate against our published schema');
        await Promise.all(keys.map((deleted) => bucket.delete(deleted)));
        const quiet = /<Quiet>\s*true\s*<\/Quiet>/i.test(text);
        return sendXml(res, `<DeleteResult xmlns="${XMLNS}">${quiet ? '' : keys.map((deleted) => `<Deleted><Key>${escapeXml(deleted)}</Key></Deleted>`).join('')}</DeleteResult>`);
      }
      if (method === 'HEAD') {
        res.writeHead(200, { 'x-amz-request-id': 'local' });
        res.end();
        return;
      }
      throw new S3Error(501, 'NotImplemented', 'A header or query you provided implies functionality that is not implemented');
    }

    switch (method) {
      case 'PUT': {
        if (req.headers['x-amz-copy-source']) throw new S3Error(501, 'NotImplemented', 'CopyObject is not implemented locally');
        const meta = await bucket.put(key, body, String(req.headers['content-type'] ?? 'binary/octet-stream'));
        res.writeHead(200, { ETag: meta.etag, 'Content-Length': 0, 'x-amz-request-id': 'local' });
        res.end();
        return;
      }
      case 'GET':
      case 'HEAD': {
        const found = method === 'GET' ? await bucket.read(key) : bucket.head(key) && { meta: bucket.head(key)!, body: undefined };
        if (!found) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.', key);
        const { meta } = found;
        res.writeHead(200, {
          'Content-Type': url.searchParams.get('response-content-type') ?? meta.contentType,
          'Content-Length': meta.size,
          ETag: meta.etag,
          'Last-Modified': new Date(meta.lastModified).toUTCString(),
          'Accept-Ranges': 'bytes',
          ...(url.searchParams.get('response-content-disposition') && { 'Content-Disposition': url.searchParams.get('response-content-disposition')! }),
          'x-amz-request-id': 'local',
        });
        res.end(found.body);
        return;
      }
      case 'DELETE':
        await bucket.delete(key);
        res.writeHead(204, { 'x-amz-request-id': 'local' });
        res.end();
        return;
      default:
        throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    }
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const method = req.method ?? 'GET';
      handle(req, res, new URL(req.url ?? '/', 'http://local'), Buffer.concat(chunks)).catch((error: unknown) => {
        if (error instanceof S3Error) return sendError(res, error, method);
        if (error instanceof AccessDenied) return sendError(res, new S3Error(403, 'AccessDenied', error.message), method);
        sendError(res, new S3Error(500, 'InternalError', error instanceof Error ? error.message : String(error)), method);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, host, resolve));
  return {
    endpoint: `http://${host}:${(server.address() as AddressInfo).port}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
};
