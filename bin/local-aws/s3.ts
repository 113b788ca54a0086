/**
 * S3 for the local runtime: the REST calls the service makes (path-style PutObject, GetObject,
 * HeadObject, DeleteObject, ListObjectsV2, DeleteObjects) and the presigned GET and PUT links it hands
 * out, answered as S3 answers them (XML errors, ETag, Last-Modified). Objects are kept in one
 * append-only file under the data directory, with an index in memory, so a request touches the disk
 * once. A restart keeps everything. With the artefacts, every call
 * is first checked against the calling function's IAM policies (bin/local-aws/iam.ts).
 * CORS as the bucket's rule on AWS (lib/constructs/data.ts) answers it: a browser page on another origin
 * may PUT and GET through presigned links (a preflight OPTIONS is answered without credentials, as S3
 * answers it; the signature on the link is what authorises the PUT that follows).
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

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const unescapeXml = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

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

/** Where an object's bytes are in the pack file. */
interface Stored extends ObjectMeta {
  offset: number;
}

/** A record's fixed prefix: the header's length and the body's, both 32-bit. */
const PREFIX_BYTES = 8;

/**
 * The objects of one bucket, in one append-only pack file: each put appends its header (key, type, ETag,
 * time) and body, each delete a header alone; an index in memory says where every live object's bytes
 * are. One file opened once, so a put is one write and a get one read (synchronous: a write of a few
 * kilobytes to the page cache costs microseconds, less than a trip through libuv's pool), in the order the
 * requests came, so the pack has no holes. At start the pack is read header by header (a record torn by a crash ends
 * it, and is cut off), and rewritten without dead records when they are most of it.
 */
class Bucket {
  private readonly index = new Map<string, Stored>();
  private end = 0;

  private constructor(
    readonly name: string,
    private readonly fd: number,
  ) {}

  static open(name: string, dir: string): Bucket {
    fs.mkdirSync(dir, { recursive: true });
    const file = path.join(dir, 'objects.pack');
    const { index, end, deadBytes } = Bucket.scan(file);
    if (deadBytes > 0 && deadBytes >= end / 2) Bucket.compact(file, index);
    else if (fs.existsSync(file) && fs.statSync(file).size > end) fs.truncateSync(file, end);
    const bucket = new Bucket(name, fs.openSync(file, fs.existsSync(file) ? 'r+' : 'w+'));
    const rescanned = deadBytes > 0 && deadBytes >= end / 2 ? Bucket.scan(file) : { index, end };
    for (const [key, stored] of rescanned.index) bucket.index.set(key, stored);
    bucket.end = rescanned.end;
    return bucket;
  }

  private static scan(file: string): { index: Map<string, Stored>; end: number; deadBytes: number } {
    const index = new Map<string, Stored>();
    if (!fs.existsSync(file)) return { index, end: 0, deadBytes: 0 };
    const fd = fs.openSync(file, 'r');
    const size = fs.fstatSync(fd).size;
    const prefix = Buffer.alloc(PREFIX_BYTES);
    let position = 0;
    let liveBytes = 0;
    try {
      while (position + PREFIX_BYTES <= size) {
        fs.readSync(fd, prefix, 0, PREFIX_BYTES, position);
        const headerBytes = prefix.readUInt32BE(0);
        const bodyBytes = prefix.readUInt32BE(4);
        const recordEnd = position + PREFIX_BYTES + headerBytes + bodyBytes;
        if (headerBytes === 0 || recordEnd > size) break;
        const header = Buffer.alloc(headerBytes);
        fs.readSync(fd, header, 0, headerBytes, position + PREFIX_BYTES);
        let record: (ObjectMeta & { deleted?: boolean }) | undefined;
        try {
          record = JSON.parse(header.toString('utf8')) as ObjectMeta & { deleted?: boolean };
        } catch {
          break;
        }
        const previous = index.get(record.key);
        if (previous) liveBytes -= previous.size;
        if (record.deleted) index.delete(record.key);
        else {
          index.set(record.key, { ...record, offset: position + PREFIX_BYTES + headerBytes });
          liveBytes += bodyBytes;
        }
        position = recordEnd;
      }
    } finally {
      fs.closeSync(fd);
    }
    return { index, end: position, deadBytes: position - liveBytes };
  }

  /** A record's parts, written as one (writev): the body is not copied into a record-sized buffer. */
  private static record(header: object, body: Buffer): Buffer[] {
    const headerBytes = Buffer.from(JSON.stringify(header));
    const prefix = Buffer.alloc(PREFIX_BYTES);
    prefix.writeUInt32BE(headerBytes.length, 0);
    prefix.writeUInt32BE(body.length, 4);
    return [prefix, headerBytes, body];
  }

  /** Writes every byte of `parts` at `position`; answers how many. */
  private static write(fd: number, parts: Buffer[], position: number): number {
    const total = parts.reduce((sum, part) => sum + part.length, 0);
    const written = fs.writevSync(fd, parts, position);
    // A regular file takes the whole write; should it not, the rest follows.
    if (written < total) {
      const rest = Buffer.concat(parts).subarray(written);
      for (let offset = 0; offset < rest.length; )
        offset += fs.writeSync(fd, rest, offset, rest.length - offset, position + written + offset);
    }
    return total;
  }

  /** The live objects into a new pack, renamed over the old one. */
  private static compact(file: string, index: Map<string, Stored>): void {
    const source = fs.openSync(file, 'r');
    const aside = `${file}.compacting`;
    const target = fs.openSync(aside, 'w');
    try {
      let position = 0;
      for (const { offset, ...meta } of index.values()) {
        const body = Buffer.alloc(meta.size);
        fs.readSync(source, body, 0, meta.size, offset);
        position += Bucket.write(target, Bucket.record(meta, body), position);
      }
    } finally {
      fs.closeSync(source);
      fs.closeSync(target);
    }
    fs.renameSync(aside, file);
  }

  /** Appends a record and answers where its body starts. */
  private append(header: object, body: Buffer): number {
    this.end += Bucket.write(this.fd, Bucket.record(header, body), this.end);
    return this.end - body.length;
  }

  put(key: string, body: Buffer, contentType: string): ObjectMeta {
    const meta: ObjectMeta = {
      key,
      size: body.length,
      etag: `"${createHash('md5').update(body).digest('hex')}"`,
      contentType,
      lastModified: Date.now(),
    };
    this.index.set(key, { ...meta, offset: this.append(meta, body) });
    return meta;
  }

  head(key: string): ObjectMeta | undefined {
    return this.index.get(key);
  }

  read(key: string): { meta: ObjectMeta; body: Buffer } | undefined {
    const stored = this.index.get(key);
    if (!stored) return undefined;
    const body = Buffer.alloc(stored.size);
    if (stored.size > 0) fs.readSync(this.fd, body, 0, stored.size, stored.offset);
    const { offset: _offset, ...meta } = stored;
    return { meta, body };
  }

  delete(key: string): void {
    if (this.index.delete(key)) this.append({ key, deleted: true }, Buffer.alloc(0));
  }

  /** Keys in UTF-8 binary order, as S3 lists them. */
  list(prefix: string, after: string, max: number): { objects: ObjectMeta[]; truncated: boolean } {
    const keys = [...this.index.keys()].filter(
      (key) => key.startsWith(prefix) && Buffer.compare(Buffer.from(key), Buffer.from(after)) > 0,
    );
    keys.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    const objects = keys.slice(0, max).flatMap((key) => this.index.get(key) ?? []);
    return { objects, truncated: keys.length > max };
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

/** A data directory s3rver kept (`<dir>/<bucket>/<key>._S3rver_object`): its objects are copied in once, the rest moved aside. */
const importS3rverData = (dataDir: string, bucketName: string, bucket: Bucket): void => {
  const old = path.join(dataDir, bucketName);
  if (!fs.existsSync(old)) return;
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
  for (const file of walk(old).filter((name) => name.endsWith('._S3rver_object'))) {
    const key = path.relative(old, file).slice(0, -'._S3rver_object'.length).split(path.sep).join('/');
    let contentType = 'application/octet-stream';
    try {
      const metadata = JSON.parse(
        fs.readFileSync(file.replace(/\._S3rver_object$/, '._S3rver_metadata.json'), 'utf8'),
      ) as Record<string, string>;
      contentType = metadata['content-type'] ?? contentType;
    } catch {
      // No metadata: S3's default type.
    }
    bucket.put(key, fs.readFileSync(file), contentType);
  }
  fs.renameSync(old, `${old}.s3rver`);
};

/** What the bucket's CORS rule allows (lib/constructs/data.ts: BUCKET_CORS). */
const CORS_METHODS = 'PUT, GET';
const CORS_MAX_AGE_SECONDS = 3000;

/** Every answer to a request from a page names its origin as allowed and lets it read the ETag. */
const setCorsHeaders = (req: http.IncomingMessage, res: http.ServerResponse) => {
  const origin = req.headers.origin;
  if (!origin) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Expose-Headers', 'ETag');
  res.setHeader('Vary', 'Origin');
};

/** A preflight: the methods allowed, and the headers the page asked to send (any, as AllowedHeaders `*`). */
const answerPreflight = (req: http.IncomingMessage, res: http.ServerResponse) => {
  const requested = req.headers['access-control-request-headers'];
  res.writeHead(200, {
    'Access-Control-Allow-Origin': req.headers.origin ?? '*',
    'Access-Control-Allow-Methods': CORS_METHODS,
    'Access-Control-Allow-Headers': requested && requested.trim() !== '' ? requested : 'content-type',
    'Access-Control-Max-Age': String(CORS_MAX_AGE_SECONDS),
    Vary: 'Origin, Access-Control-Request-Headers, Access-Control-Request-Method',
    'Content-Length': 0,
    'x-amz-request-id': 'local',
  });
  res.end();
};

export const startLocalS3 = async (options: {
  dataDir: string;
  bucket: string;
  port?: number;
  host?: string;
  gate?: IamGate;
}): Promise<LocalS3> => {
  const host = options.host ?? '127.0.0.1';
  const bucket = Bucket.open(options.bucket, path.join(options.dataDir, 'objects', options.bucket));
  importS3rverData(options.dataDir, options.bucket, bucket);

  const sendError = (res: http.ServerResponse, error: S3Error, method: string) => {
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.code}</Code><Message>${escapeXml(error.message)}</Message>${error.resource ? `<Key>${escapeXml(error.resource)}</Key>` : ''}<RequestId>local</RequestId></Error>`;
    res.writeHead(error.status, {
      'Content-Type': 'application/xml',
      'Content-Length': method === 'HEAD' ? 0 : Buffer.byteLength(body),
      'x-amz-request-id': 'local',
    });
    res.end(method === 'HEAD' ? undefined : body);
  };
  const sendXml = (res: http.ServerResponse, xml: string) => {
    const body = `<?xml version="1.0" encoding="UTF-8"?>\n${xml}`;
    res.writeHead(200, {
      'Content-Type': 'application/xml',
      'Content-Length': Buffer.byteLength(body),
      'x-amz-request-id': 'local',
    });
    res.end(body);
  };

  /** A presigned link is refused once it has expired, as S3 refuses it. */
  const refuseExpired = (url: URL) => {
    const signedAt = url.searchParams.get('X-Amz-Date');
    const expires = url.searchParams.get('X-Amz-Expires');
    if (!signedAt || !expires) return;
    const at = Date.parse(signedAt.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
    if (Number.isNaN(at) || Date.now() > at + Number(expires) * 1000)
      throw new S3Error(403, 'AccessDenied', 'Request has expired');
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL, body: Buffer): Promise<void> => {
    const method = req.method ?? 'GET';
    const [bucketName, ...rest] = url.pathname.replace(/^\//, '').split('/');
    const key = rest.map(decodeURIComponent).join('/');
    if (decodeURIComponent(bucketName ?? '') !== bucket.name)
      throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist', bucketName);
    refuseExpired(url);
    options.gate?.authorize(req, s3Requests(method, url, body));

    if (!key) {
      if (method === 'GET' && url.searchParams.get('list-type') === '2') {
        const prefix = url.searchParams.get('prefix') ?? '';
        const token = url.searchParams.get('continuation-token');
        const after = token
          ? Buffer.from(token, 'base64url').toString('utf8')
          : (url.searchParams.get('start-after') ?? '');
        const max = Math.min(MAX_LIST_KEYS, Number(url.searchParams.get('max-keys') ?? MAX_LIST_KEYS));
        const { objects, truncated } = bucket.list(prefix, after, max);
        const contents = objects
          .map(
            (object) =>
              `<Contents><Key>${escapeXml(object.key)}</Key><LastModified>${new Date(object.lastModified).toISOString()}</LastModified><ETag>${escapeXml(object.etag)}</ETag><Size>${object.size}</Size><StorageClass>STANDARD</StorageClass></Contents>`,
          )
          .join('');
        const next = truncated
          ? `<NextContinuationToken>${Buffer.from(objects[objects.length - 1].key).toString('base64url')}</NextContinuationToken>`
          : '';
        return sendXml(
          res,
          `<ListBucketResult xmlns="${XMLNS}"><Name>${bucket.name}</Name><Prefix>${escapeXml(prefix)}</Prefix><KeyCount>${objects.length}</KeyCount><MaxKeys>${max}</MaxKeys><IsTruncated>${truncated}</IsTruncated>${token ? `<ContinuationToken>${token}</ContinuationToken>` : ''}${next}${contents}</ListBucketResult>`,
        );
      }
      if (method === 'POST' && url.searchParams.has('delete')) {
        const text = body.toString('utf8');
        const keys = [...text.matchAll(/<Key>([^<]*)<\/Key>/g)].map((match) => unescapeXml(match[1]));
        if (keys.length > 1000)
          throw new S3Error(
            400,
            'MalformedXML',
            'The XML you provided was not well-formed or did not validate against our published schema',
          );
        for (const deleted of keys) bucket.delete(deleted);
        const quiet = /<Quiet>\s*true\s*<\/Quiet>/i.test(text);
        return sendXml(
          res,
          `<DeleteResult xmlns="${XMLNS}">${quiet ? '' : keys.map((deleted) => `<Deleted><Key>${escapeXml(deleted)}</Key></Deleted>`).join('')}</DeleteResult>`,
        );
      }
      if (method === 'HEAD') {
        res.writeHead(200, { 'x-amz-request-id': 'local' });
        res.end();
        return;
      }
      throw new S3Error(
        501,
        'NotImplemented',
        'A header or query you provided implies functionality that is not implemented',
      );
    }

    switch (method) {
      case 'PUT': {
        if (req.headers['x-amz-copy-source'])
          throw new S3Error(501, 'NotImplemented', 'CopyObject is not implemented locally');
        const meta = bucket.put(key, body, String(req.headers['content-type'] ?? 'binary/octet-stream'));
        res.writeHead(200, { ETag: meta.etag, 'Content-Length': 0, 'x-amz-request-id': 'local' });
        res.end();
        return;
      }
      case 'GET':
      case 'HEAD': {
        const head = method === 'HEAD' ? bucket.head(key) : undefined;
        const found = method === 'GET' ? bucket.read(key) : head && { meta: head, body: undefined };
        if (!found) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.', key);
        const { meta } = found;
        const disposition = url.searchParams.get('response-content-disposition');
        res.writeHead(200, {
          'Content-Type': url.searchParams.get('response-content-type') ?? meta.contentType,
          'Content-Length': meta.size,
          ETag: meta.etag,
          'Last-Modified': new Date(meta.lastModified).toUTCString(),
          'Accept-Ranges': 'bytes',
          ...(disposition && { 'Content-Disposition': disposition }),
          'x-amz-request-id': 'local',
        });
        res.end(found.body);
        return;
      }
      case 'DELETE':
        bucket.delete(key);
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
      if (method === 'OPTIONS') return answerPreflight(req, res);
      setCorsHeaders(req, res);
      handle(req, res, new URL(req.url ?? '/', 'http://local'), Buffer.concat(chunks)).catch((error: unknown) => {
        if (error instanceof S3Error) return sendError(res, error, method);
        if (error instanceof AccessDenied)
          return sendError(res, new S3Error(403, 'AccessDenied', error.message), method);
        sendError(
          res,
          new S3Error(500, 'InternalError', error instanceof Error ? error.message : String(error)),
          method,
        );
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
      bucket.close();
    },
  };
};
