/**
 * Image inputs, black box: every accepted form (bare base64, data URI, http URL) and format (JPEG, PNG,
 * WebP, HEIC/HEIF), read from the bytes; every refusal a 400 INVALID_REQUEST naming the input
 * (`images[1]`, `image`, `reference_image`). URLs are served from 127.0.0.1 (the local runtime allows
 * loopback URLs).
 */
import sharp from 'sharp';
import { startTestRuntime, type TestRuntime } from '../../support/runtime';
import {
  b64,
  COLOURS,
  closedPort,
  decode,
  expectError,
  expectOk,
  flatImage,
  HEIC_64x48,
  startImageServer,
} from './support';

let runtime: TestRuntime;
let apiKey: string;
let png: Buffer;
let server: Awaited<ReturnType<typeof startImageServer>>;

beforeAll(async () => {
  runtime = await startTestRuntime();
  ({ apiKey } = await runtime.newAccount(1_000_000_000));
  png = await flatImage(64, 48, 'png', COLOURS.red);
  server = await startImageServer({
    'portrait.jpg': await flatImage(48, 64, 'jpeg', COLOURS.green),
    'small.heic': HEIC_64x48,
    'notes.txt': Buffer.from('not an image at all'),
  });
});
afterAll(async () => {
  await server.close();
  await runtime.close();
});

const validEdit = (overrides: Record<string, unknown> = {}) => ({
  prompt: 'brighter',
  images: [b64(png)],
  ...overrides,
});
const edit = (body: unknown) => runtime.call('POST', '/v2/service/edit', { apiKey, body });

/** A 400 INVALID_REQUEST whose detail names `label`. */
const refusedNaming = async (response: Response, label: string) => {
  const body = await expectError(response, 400, 'INVALID_REQUEST');
  expect(body.detail).toContain(label);
  return body;
};

describe('accepted forms and formats', () => {
  it.each(['png', 'jpeg', 'webp'] as const)('accepts bare base64 %s, following its aspect ratio', async (format) => {
    const answer = await expectOk(
      await edit(validEdit({ images: [b64(await flatImage(48, 64, format, COLOURS.blue))] })),
    );
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width: 768, height: 1024 });
  });

  it('accepts URL-safe base64 without padding', async () => {
    const answer = await expectOk(await edit(validEdit({ images: [png.toString('base64url')] })));
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width: 1024, height: 768 });
  });

  it('accepts base64 wrapped at 76 columns', async () => {
    const wrapped = b64(png).replace(/(.{76})/g, '$1\n');
    await expectOk(await edit(validEdit({ images: [wrapped] })));
  });

  it('accepts a data URI', async () => {
    const answer = await expectOk(await edit(validEdit({ images: [`data:image/png;base64,${b64(png)}`] })));
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width: 1024, height: 768 });
  });

  it("reads the format from the bytes, not from the data URI's declared type", async () => {
    const jpeg = await flatImage(64, 48, 'jpeg');
    await expectOk(await edit(validEdit({ images: [`data:image/png;base64,${b64(jpeg)}`] })));
  });

  it('accepts an http URL', async () => {
    const answer = await expectOk(await edit(validEdit({ images: [server.url('portrait.jpg')] })));
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width: 768, height: 1024 });
  });

  it('accepts a real HEIC as base64, with the output in its aspect ratio', async () => {
    const answer = await expectOk(await edit(validEdit({ images: [b64(HEIC_64x48)] })));
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width: 1024, height: 768 });
  });

  it('accepts a real HEIC by URL', async () => {
    const answer = await expectOk(await edit(validEdit({ images: [server.url('small.heic')] })));
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width: 1024, height: 768 });
  });

  it('enhances a HEIC to 2048 px in its aspect ratio', async () => {
    const response = await runtime.call('POST', '/v2/service/enhance', { apiKey, body: { image: b64(HEIC_64x48) } });
    const answer = await expectOk(response);
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width: 2048, height: 1536 });
  });

  it('remixes HEIC inputs (content and reference)', async () => {
    const response = await runtime.call('POST', '/v2/service/remix', {
      apiKey,
      body: { input_image: b64(HEIC_64x48), reference_image: server.url('small.heic') },
    });
    const answer = await expectOk(response);
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width: 2048, height: 1536 });
  });

  it('mixes forms and formats in one request', async () => {
    const images = [
      b64(png),
      `data:image/webp;base64,${b64(await flatImage(64, 48, 'webp'))}`,
      server.url('portrait.jpg'),
      b64(HEIC_64x48),
    ];
    await expectOk(await edit(validEdit({ images })));
  });

  it('accepts an input larger than 4096 px (it is resized)', async () => {
    const large = await sharp({ create: { width: 4608, height: 3456, channels: 3, background: COLOURS.green } })
      .jpeg()
      .toBuffer();
    const answer = await expectOk(await edit(validEdit({ images: [b64(large)] })));
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width: 1024, height: 768 });
  });
});

describe('refused inputs: 400 naming the input', () => {
  it('refuses an unsupported format (GIF), naming images[1]', async () => {
    const gif = await flatImage(64, 48, 'gif');
    const body = await refusedNaming(await edit(validEdit({ images: [b64(png), b64(gif)] })), 'images[1]');
    expect(body.detail).not.toContain('images[0]');
  });

  it('refuses AVIF (the HEIF container with an AV1 brand)', async () => {
    const avif = await sharp({ create: { width: 64, height: 48, channels: 3, background: COLOURS.red } })
      .avif({ effort: 0 })
      .toBuffer();
    await refusedNaming(await edit(validEdit({ images: [b64(avif)] })), 'images[0]');
  });

  it('refuses TIFF', async () => {
    await refusedNaming(await edit(validEdit({ images: [b64(await flatImage(64, 48, 'tiff'))] })), 'images[0]');
  });

  it('refuses invalid base64', async () => {
    await refusedNaming(await edit(validEdit({ images: ['this is *not* base64!'] })), 'images[0]');
  });

  it('refuses base64 that mixes the standard and URL-safe alphabets', async () => {
    await refusedNaming(await edit(validEdit({ images: ['AAAA+/AA-_AA'] })), 'images[0]');
  });

  it('refuses a truncated image', async () => {
    await refusedNaming(await edit(validEdit({ images: [b64(png.subarray(0, 40))] })), 'images[0]');
  });

  it('refuses a data URI that is not an image', async () => {
    await refusedNaming(
      await edit(validEdit({ images: [`data:text/plain;base64,${Buffer.from('hello').toString('base64')}`] })),
      'images[0]',
    );
  });

  it('refuses a URL whose bytes are not an image', async () => {
    await refusedNaming(await edit(validEdit({ images: [server.url('notes.txt')] })), 'images[0]');
  });

  it('refuses an unreachable URL, naming the input', async () => {
    const port = await closedPort();
    await refusedNaming(await edit(validEdit({ images: [b64(png), `http://127.0.0.1:${port}/a.png`] })), 'images[1]');
  });

  it('refuses a URL that answers 404, naming the input', async () => {
    const body = await refusedNaming(await edit(validEdit({ images: [server.url('missing.png')] })), 'images[0]');
    expect(body.detail).toContain('404');
  });

  it('refuses a scheme other than http(s)', async () => {
    await refusedNaming(await edit(validEdit({ images: ['ftp://127.0.0.1/a.png'] })), 'images[0]');
  });

  it('names image on enhance', async () => {
    const response = await runtime.call('POST', '/v2/service/enhance', { apiKey, body: { image: 'not base64!' } });
    const body = await refusedNaming(response, 'image');
    expect(body.detail).toMatch(/^image\b/);
  });

  it('names reference_image on remix', async () => {
    const gif = await flatImage(64, 48, 'gif');
    const response = await runtime.call('POST', '/v2/service/remix', {
      apiKey,
      body: { input_image: b64(png), reference_image: b64(gif) },
    });
    await refusedNaming(response, 'reference_image');
  });
});
