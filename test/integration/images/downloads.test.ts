/**
 * `response_mode: "urls"`, black box: the answer carries one download link per output and no bytes;
 * each link (no API key: the token is the credential) redirects to a short-lived presigned URL whose
 * bytes are the image asked for; a tampered token is a 404 with the error body.
 */
import { startTestRuntime, type TestRuntime } from '../../support/runtime';
import { b64, COLOURS, decode, type ErrorBody, expectOk, flatImage } from './support';

let runtime: TestRuntime;
let apiKey: string;
let input: Buffer;

beforeAll(async () => {
  runtime = await startTestRuntime();
  ({ apiKey } = await runtime.newAccount(1_000_000_000));
  input = await flatImage(64, 48, 'png', COLOURS.red);
});
afterAll(() => runtime.close());

const validEdit = (overrides: Record<string, unknown> = {}) => ({
  prompt: 'brighter',
  images: [b64(input)],
  response_mode: 'urls',
  ...overrides,
});
const edit = (body: unknown) => runtime.call('POST', '/v2/service/edit', { apiKey, body });

/** GET a download link without following the redirect. */
const open = (url: string) => fetch(url, { redirect: 'manual' });

/** Follows a download link to its bytes. */
const download = async (url: string): Promise<Buffer> => {
  const redirect = await open(url);
  expect(redirect.status).toBe(302);
  const target = await fetch(redirect.headers.get('location')!);
  expect(target.status).toBe(200);
  return Buffer.from(await target.arrayBuffer());
};

/** Changes the first character of the token's signature (all six of its bits are significant). */
const tamper = (url: string): string => {
  const at = url.lastIndexOf('.') + 1;
  return `${url.slice(0, at)}${url[at] === 'A' ? 'Q' : 'A'}${url.slice(at + 1)}`;
};

describe('response_mode urls', () => {
  it('answers download_urls and no images', async () => {
    const answer = await expectOk(await edit(validEdit()));
    expect(answer).toEqual({
      known_subjects: { counts: {} },
      recognized_faces: [],
      identity: { expected: [], outputs: [{ output_index: 0, kept: [], missing: [], attempts: 1 }] },
      images: [],
      download_urls: [expect.stringContaining('/v2/service/downloads/')],
    });
  });

  it('serves links on the address the caller used', async () => {
    const answer = await expectOk(await edit(validEdit()));
    expect(answer.download_urls[0].startsWith(`${runtime.url}/v2/service/downloads/`)).toBe(true);
  });

  it('gives one link per output, each leading to a distinct image of the requested format and size', async () => {
    const answer = await expectOk(
      await edit(validEdit({ num_output_images: 2, output_format: 'png', aspect_ratio: '16:9' })),
    );
    expect(answer.download_urls).toHaveLength(2);
    const files = await Promise.all(answer.download_urls.map(download));
    expect(files[0].equals(files[1])).toBe(false);
    for (const file of files) expect(await decode(file)).toEqual({ format: 'png', width: 1024, height: 576 });
  });

  it('redirects without needing an API key, and is not cached', async () => {
    const answer = await expectOk(await edit(validEdit()));
    const redirect = await open(answer.download_urls[0]);
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toMatch(/^https?:\/\//);
    expect(redirect.headers.get('cache-control')).toBe('no-store');
  });

  it('downloads the default JPEG of generate', async () => {
    const response = await runtime.call('POST', '/v2/service/generate', {
      apiKey,
      body: { prompt: 'a lighthouse', response_mode: 'urls' },
    });
    const answer = await expectOk(response);
    expect(await decode(await download(answer.download_urls[0]))).toEqual({
      format: 'jpeg',
      width: 1024,
      height: 1024,
    });
  });

  it('downloads the 2K output of enhance', async () => {
    const response = await runtime.call('POST', '/v2/service/enhance', {
      apiKey,
      body: { image: b64(input), response_mode: 'urls' },
    });
    const answer = await expectOk(response);
    expect(await decode(await download(answer.download_urls[0]))).toEqual({
      format: 'jpeg',
      width: 2048,
      height: 1536,
    });
  });

  it('downloads the 2K output of remix', async () => {
    const reference = b64(await flatImage(48, 64, 'png', COLOURS.blue));
    const response = await runtime.call('POST', '/v2/service/remix', {
      apiKey,
      body: { input_image: b64(input), reference_image: reference, response_mode: 'urls' },
    });
    const answer = await expectOk(response);
    expect(await decode(await download(answer.download_urls[0]))).toEqual({
      format: 'jpeg',
      width: 2048,
      height: 1536,
    });
  });

  it('answers bytes mode with images and no download_urls', async () => {
    const answer = await expectOk(await edit(validEdit({ response_mode: 'bytes' })));
    expect(answer.images).toHaveLength(1);
    expect(answer.download_urls).toEqual([]);
  });

  it('answers a tampered token with 404 NOT_FOUND and the error body', async () => {
    const answer = await expectOk(await edit(validEdit()));
    const response = await open(tamper(answer.download_urls[0]));
    expect(response.status).toBe(404);
    const body = (await response.json()) as ErrorBody;
    expect(body).toEqual({
      detail: expect.any(String),
      code: 'NOT_FOUND',
      request_id: response.headers.get('x-request-id'),
    });
  });

  it('answers a token that is not a token with 404 NOT_FOUND', async () => {
    const response = await open(`${runtime.url}/v2/service/downloads/not-a-token`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as ErrorBody).code).toBe('NOT_FOUND');
  });
});
