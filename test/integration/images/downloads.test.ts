/**
 * `response_mode: "urls"`, black box: the answer carries one download link per output and no bytes;
 * each link (no API key: the token is the credential) redirects to a short-lived presigned URL whose
 * bytes are the image asked for; a tampered token is a 404 with the error body.
 */

import type { ImageOperation, RequestBody } from '../../support/builders/requests';
import {
  answerNamingNobody,
  COLOURS,
  decode,
  type ErrorBody,
  expectOk,
  flatImage,
  operationCall,
  useImageWorld,
} from './support';

const world = useImageWorld(async () => ({
  input: await flatImage(64, 48, 'png', COLOURS.red),
  reference: await flatImage(48, 64, 'png', COLOURS.blue),
}));

/** The operation's call, its valid body asking for download links. */
const urlsCall = (operation: ImageOperation) => {
  const call = operationCall(operation, world, () => world);
  return { ...call, valid: (overrides: RequestBody = {}) => call.valid({ response_mode: 'urls', ...overrides }) };
};
const { valid: validEdit, send: edit } = urlsCall('edit');

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
    expect(answer).toEqual(
      answerNamingNobody({ images: [], download_urls: [expect.stringContaining('/v2/service/downloads/')] }),
    );
  });

  it('serves links on the address the caller used', async () => {
    const answer = await expectOk(await edit(validEdit()));
    expect(answer.download_urls[0].startsWith(`${world.runtime.url}/v2/service/downloads/`)).toBe(true);
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

  it.each([
    ['the default JPEG of generate', 'generate', 1024, 1024],
    ['the 2K output of enhance', 'enhance', 2048, 1536],
    ['the 2K output of remix', 'remix', 2048, 1536],
  ] as const)('downloads %s', async (_output, operation, width, height) => {
    const call = urlsCall(operation);
    const answer = await expectOk(await call.send(call.valid()));
    expect(await decode(await download(answer.download_urls[0]))).toEqual({ format: 'jpeg', width, height });
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
    const response = await open(`${world.runtime.url}/v2/service/downloads/not-a-token`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as ErrorBody).code).toBe('NOT_FOUND');
  });
});
