/**
 * Direct uploads, black box: an input too large for a request body is PUT to the presigned URL and used by
 * its `upload:` reference. One valid upload (`uploadImage`); each test breaks one aspect of it.
 */

import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { useMovableClock } from '../support/clock';
import { inProcessOnly, startTestRuntime, type TestRuntime } from '../support/runtime';
import { b64, decode, expectError, expectOk, flatImage } from './images/support';

const DAY_MS = 24 * 60 * 60 * 1000;

let runtime: TestRuntime;
let apiKey: string;
const clock = useMovableClock();
/** A 12 MP photo-like JPEG over 12 MB: twice what a request body may carry. */
let largeJpeg: Buffer;

beforeAll(async () => {
  runtime = await startTestRuntime({ clock: clock.now });
  ({ apiKey } = await runtime.newAccount(1_000_000_000));
  largeJpeg = await sharp(randomBytes(4000 * 3000 * 3), { raw: { width: 4000, height: 3000, channels: 3 } })
    .jpeg({ quality: 98 })
    .toBuffer();
}, 60_000);
afterAll(() => runtime.close());

interface Ticket {
  upload_id: string;
  reference: string;
  upload_url: string;
  upload_method: string;
  upload_headers: Record<string, string>;
  upload_url_expires_at: string;
  expires_at: string;
}

const createUpload = async (body: unknown, key = apiKey) =>
  runtime.call('POST', '/v2/service/uploads', { apiKey: key, body });

const ticketOf = async (response: Response): Promise<Ticket> => {
  const text = await response.text();
  expect({ status: response.status, body: text.slice(0, 300) }).toEqual({ status: 200, body: expect.any(String) });
  return JSON.parse(text) as Ticket;
};

/** The `loc` of each validation error of a 422. */
const invalidFields = async (response: Response): Promise<unknown[]> => {
  expect(response.status).toBe(422);
  return ((await response.json()) as { detail: Array<{ loc: unknown }> }).detail.map((entry) => entry.loc);
};

/** Asks for an upload of `bytes` and PUTs them; answers the reference. */
const uploadImage = async (bytes: Buffer, contentType = 'image/jpeg', key = apiKey): Promise<string> => {
  const ticket = await ticketOf(await createUpload({ size_bytes: bytes.length, content_type: contentType }, key));
  const put = await fetch(ticket.upload_url, {
    method: ticket.upload_method,
    headers: ticket.upload_headers,
    body: bytes,
  });
  expect(put.status).toBe(200);
  return ticket.reference;
};

const edit = (images: string[], key = apiKey) =>
  runtime.call('POST', '/v2/service/edit', { apiKey: key, body: { prompt: 'warmer light', images } });

describe('direct uploads', () => {
  it('take a 12 MB JPEG that a request body cannot carry, and an edit uses it', async () => {
    expect(largeJpeg.length).toBeGreaterThan(12_000_000);
    const inline = await edit([b64(largeJpeg)]);
    expect(inline.status).toBe(413);

    const reference = await uploadImage(largeJpeg);
    expect(reference).toMatch(/^upload:upl_[A-Za-z0-9_-]+$/);
    const answer = await expectOk(await edit([reference]));
    expect(await decode(answer.images[0]!)).toEqual({ format: 'jpeg', width: 1024, height: 768 });
  }, 60_000);

  it('answer a PUT URL that lasts 15 minutes and an upload that serves 24 h', async () => {
    const before = Date.now();
    const ticket = await ticketOf(await createUpload({ size_bytes: 1000, content_type: 'image/png' }));
    expect(ticket).toEqual({
      upload_id: expect.stringMatching(/^upl_/),
      reference: `upload:${ticket.upload_id}`,
      upload_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\//),
      upload_method: 'PUT',
      upload_headers: { 'Content-Type': 'image/png' },
      upload_url_expires_at: expect.any(String),
      expires_at: expect.any(String),
    });
    expect(Date.parse(ticket.upload_url_expires_at) - before).toBeGreaterThanOrEqual(15 * 60 * 1000 - 1000);
    expect(Date.parse(ticket.expires_at) - Date.parse(ticket.upload_url_expires_at)).toBe(DAY_MS);
  });

  it('are not found from another account', async () => {
    const reference = await uploadImage(await flatImage(64, 48), 'image/png');
    const other = await runtime.newAccount(1_000_000_000);
    await expectError(await edit([reference], other.apiKey), 404, 'NOT_FOUND');
  });

  it('are checked like any input: bytes that are not an image are a 400', async () => {
    const reference = await uploadImage(Buffer.from('%PDF-1.7 this is not an image at all'), 'image/jpeg');
    const error = await expectError(await edit([reference]), 400, 'INVALID_REQUEST');
    expect(error.detail).toBe('images[0] is not a supported image (JPEG, PNG, WebP, HEIC/HEIF).');
  });

  it('refuse a malformed reference with a 400', async () => {
    await expectError(await edit(['upload:not an id']), 400, 'INVALID_REQUEST');
  });

  it('refuse more than 50 MiB and a type that is not an image, at the upload request', async () => {
    expect(
      await invalidFields(await createUpload({ size_bytes: 50 * 1024 * 1024 + 1, content_type: 'image/jpeg' })),
    ).toEqual([['body', 'size_bytes']]);
    expect(await invalidFields(await createUpload({ size_bytes: 1000, content_type: 'application/pdf' }))).toEqual([
      ['body', 'content_type'],
    ]);
  });

  it('need an API key', async () => {
    const response = await runtime.call('POST', '/v2/service/uploads', {
      body: { size_bytes: 1000, content_type: 'image/png' },
    });
    expect({ status: response.status, code: ((await response.json()) as { code: string }).code }).toEqual({
      status: 403,
      code: 'MISSING_API_KEY',
    });
  });

  inProcessOnly('serve for 24 h after they arrive, then are not found', async () => {
    const reference = await uploadImage(await flatImage(64, 48), 'image/png');
    clock.setTo(Date.now() + DAY_MS - 60_000);
    await expectOk(await edit([reference]));
    clock.setTo(Date.now() + DAY_MS + 1000);
    await expectError(await edit([reference]), 404, 'NOT_FOUND');
  });

  it('may be PUT from a browser page on another origin, which the portal page is allowed to reach', async () => {
    const bytes = await flatImage(64, 48);
    const ticket = await ticketOf(await createUpload({ size_bytes: bytes.length, content_type: 'image/png' }));
    const bucketOrigin = new URL(ticket.upload_url).origin;
    const page = await fetch(`${runtime.url}/portal`);
    const connectSources = /connect-src ([^;]*)/.exec(page.headers.get('content-security-policy') ?? '')?.[1];
    expect(connectSources?.split(' ')).toEqual(["'self'", bucketOrigin]);

    const origin = 'http://portal.example:8080';
    const preflight = await fetch(ticket.upload_url, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'PUT',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(200);
    expect(
      Object.fromEntries(
        [
          'access-control-allow-origin',
          'access-control-allow-methods',
          'access-control-allow-headers',
          'access-control-max-age',
        ].map((name) => [name, preflight.headers.get(name)]),
      ),
    ).toEqual({
      'access-control-allow-origin': origin,
      'access-control-allow-methods': 'PUT, GET',
      'access-control-allow-headers': 'content-type',
      'access-control-max-age': '3000',
    });

    const put = await fetch(ticket.upload_url, {
      method: 'PUT',
      headers: { ...ticket.upload_headers, Origin: origin },
      body: new Uint8Array(bytes),
    });
    expect(put.status).toBe(200);
    expect(put.headers.get('access-control-allow-origin')).toBe(origin);
    expect(put.headers.get('access-control-expose-headers')).toBe('ETag');
    expect(put.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    await expectOk(await edit([ticket.reference]));
  });
});
