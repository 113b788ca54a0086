/**
 * Shared pieces of the black-box image-operation tests: small input images, an HTTP server that serves
 * bytes on 127.0.0.1, and assertions on the answers every image operation gives (the deprecation
 * header and the request id on success and on every error).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { services } from '../../../bin/local-aws/services';
import {
  type BodyImages,
  type ImageOperation,
  naming,
  type Refusal,
  type RequestBody,
  validBody,
} from '../../support/builders/requests';
import { seedProfile } from '../../support/profiles';
import { startTestRuntime, type TestRuntime } from '../../support/runtime';

export const DEPRECATION_DATE = '2026-05-08';

export const HEIC_64x48 = fs.readFileSync(path.join(__dirname, '../../fixtures/images/small-64x48.heic'));

type Rgb = { r: number; g: number; b: number };

const RED: Rgb = { r: 200, g: 40, b: 40 };

/** A flat image; flat images of colours far apart never match each other's identity signature. */
export const flatImage = (
  width: number,
  height: number,
  format: 'png' | 'jpeg' | 'webp' | 'gif' | 'tiff' = 'png',
  colour: Rgb = RED,
): Promise<Buffer> =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    [format]()
    .toBuffer();

/** A horizontal gradient from `from` to `to`: an image with structure, for identity signatures. */
export const gradientImage = async (width: number, height: number, from: Rgb, to: Rgb): Promise<Buffer> => {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const t = x / Math.max(1, width - 1);
      const offset = (y * width + x) * 3;
      pixels[offset] = Math.round(from.r + (to.r - from.r) * t);
      pixels[offset + 1] = Math.round(from.g + (to.g - from.g) * t);
      pixels[offset + 2] = Math.round(from.b + (to.b - from.b) * t);
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .png()
    .toBuffer();
};

export const COLOURS = {
  red: RED,
  blue: { r: 30, g: 60, b: 210 },
  green: { r: 30, g: 190, b: 60 },
  white: { r: 250, g: 250, b: 250 },
  black: { r: 5, g: 5, b: 5 },
} as const;

export const b64 = (bytes: Buffer): string => bytes.toString('base64');

export interface RecognizedFace {
  output_index: number;
  profile_id: string;
  box: { x: number; y: number; width: number; height: number };
}

export interface ImageAnswer {
  known_subjects: { counts: Record<string, number> };
  recognized_faces: RecognizedFace[];
  identity?: { expected: string[]; not_checked?: string[] };
  images: string[];
  download_urls: string[];
}

export interface ErrorBody {
  detail: string;
  code: string;
  request_id: string;
}

export interface ValidationBody {
  detail: Array<{
    type: string;
    loc: Array<string | number>;
    msg: string;
    input?: unknown;
    ctx?: Record<string, unknown>;
  }>;
}

/** Every image-operation answer carries the deprecation date and a request id. */
export const expectOperationHeaders = (response: Response): void => {
  expect(response.headers.get('x-service-deprecation-date')).toBe(DEPRECATION_DATE);
  expect(response.headers.get('x-request-id')).toBeTruthy();
};

export const expectOk = async (response: Response): Promise<ImageAnswer> => {
  const text = await response.text();
  if (response.status !== 200) throw new Error(`expected 200, got ${response.status}: ${text.slice(0, 500)}`);
  expectOperationHeaders(response);
  return JSON.parse(text) as ImageAnswer;
};

/** An error answer: the status, the code, `{detail, code, request_id}` and the operation headers. */
export const expectError = async (response: Response, status: number, code: string): Promise<ErrorBody> => {
  const text = await response.text();
  expect({ status: response.status, body: text.slice(0, 500) }).toEqual({ status, body: expect.any(String) });
  const body = JSON.parse(text) as ErrorBody;
  expect(body).toEqual({ detail: expect.any(String), code, request_id: expect.any(String) });
  expectOperationHeaders(response);
  expect(response.headers.get('x-request-id')).toBe(body.request_id);
  return body;
};

/** A 422 in the validation shape with an entry located exactly at `loc`. */
export const expectValidation = async (
  response: Response,
  loc: Array<string | number>,
): Promise<ValidationBody['detail'][number]> => {
  const text = await response.text();
  expect({ status: response.status, body: text.slice(0, 500) }).toEqual({ status: 422, body: expect.any(String) });
  const body = JSON.parse(text) as ValidationBody;
  expect(body.detail).toEqual(
    expect.arrayContaining([expect.objectContaining({ type: expect.any(String), loc, msg: expect.any(String) })]),
  );
  expectOperationHeaders(response);
  const entry = body.detail.find((item) => JSON.stringify(item.loc) === JSON.stringify(loc))!;
  expect(entry).toHaveProperty('input');
  return entry;
};

/** What an image test file runs against: the runtime, one account, and the file's input images by name. */
export type ImageWorld<Images extends Record<string, Buffer>> = {
  runtime: TestRuntime;
  apiKey: string;
  accountId: string;
} & Images;

/**
 * Starts the local runtime before the file's tests, with an account holding 1000 in credit and the input
 * images `draw` makes, and closes it after them. The fields are set once the file's `beforeAll` has run.
 */
export const useImageWorld = <Images extends Record<string, Buffer> = Record<never, Buffer>>(
  draw: () => Promise<Images> = async () => ({}) as Images,
): ImageWorld<Images> => {
  const world = {} as ImageWorld<Images>;
  beforeAll(async () => {
    const runtime = await startTestRuntime();
    const { apiKey, accountId } = await runtime.newAccount(1_000_000_000);
    Object.assign(world, { runtime, apiKey, accountId }, await draw());
  });
  afterAll(() => world.runtime.close());
  return world;
};

/** The answer of a request that names nobody: `images` and `download_urls` as given (one image in bytes by default). */
export const answerNamingNobody = (outputs: Partial<Pick<ImageAnswer, 'images' | 'download_urls'>> = {}) => ({
  known_subjects: { counts: {} },
  recognized_faces: [],
  identity: { expected: [], outputs: [{ output_index: 0, kept: [], missing: [], attempts: 1 }], retried_outputs: 0 },
  images: [expect.any(String)],
  download_urls: [],
  ...outputs,
});

/** An image operation as its tests call it: a valid body to change, and a POST with the test's API key. */
export interface OperationCall {
  operation: ImageOperation;
  valid(overrides?: RequestBody): RequestBody;
  send(body: unknown, apiKey?: string): Promise<Response>;
}

/** The operation's call on the test's runtime and account, its valid body carrying `images`. */
export const operationCall = (
  operation: ImageOperation,
  world: { runtime: TestRuntime; apiKey: string; accountId: string },
  images: () => BodyImages = () => ({}),
): OperationTests => {
  const call: OperationCall = {
    operation,
    valid: (overrides = {}) => validBody(operation, images(), overrides),
    send: (body, apiKey = world.apiKey) => world.runtime.call('POST', `/v2/service/${operation}`, { apiKey, body }),
  };
  return {
    ...call,
    itRendersLikeEveryOperation: (size) => itRendersLikeEveryOperation(call, size),
    itRenders: (renderings) => itRenders(call, renderings),
    itRefuses: (refusals) => itRefuses(call, refusals),
    itRefusesProfilesItCannotUse: () => itRefusesProfilesItCannotUse(call, world),
  };
};

/** The operation's call with the tests every operation's file runs through it (the functions below). */
export interface OperationTests extends OperationCall {
  itRendersLikeEveryOperation(size: Parameters<typeof itRendersLikeEveryOperation>[1]): void;
  itRenders(renderings: readonly Rendering[]): void;
  itRefuses(refusals: readonly Refusal[]): void;
  itRefusesProfilesItCannotUse(): void;
}

/** A request's outputs: `count` distinct images (one by default), each of this format and size. */
export interface Rendering {
  case: string;
  /** What the request changes from the valid body (a function when it names the file's images). */
  change: RequestBody | (() => RequestBody);
  format: 'jpeg' | 'png';
  width: number;
  height: number;
  count?: number;
}

/** A rendering of one JPEG of this size. */
export const jpeg = (name: string, change: Rendering['change'], width: number, height: number): Rendering => ({
  case: name,
  change,
  format: 'jpeg',
  width,
  height,
});

/**
 * What every operation renders, at its default output size: one JPEG for the valid body, with an answer
 * that names nobody (`byDefault` is its test's name); PNG when asked; `count` distinct outputs when asked.
 */
export const itRendersLikeEveryOperation = (
  call: OperationCall,
  { byDefault, width, height, count }: { byDefault: string; width: number; height: number; count: number },
): void => {
  it(byDefault, async () => {
    const answer = await expectOk(await call.send(call.valid()));
    expect(answer).toEqual(answerNamingNobody());
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width, height });
  });
  itRenders(call, [
    { case: 'answers PNG when output_format is png', change: { output_format: 'png' }, format: 'png', width, height },
    {
      case: 'returns N distinct images for num_output_images N',
      change: { num_output_images: count },
      format: 'jpeg',
      width,
      height,
      count,
    },
  ]);
};

/** One test a rendering: the valid body changed as it says answers its outputs, decoded. */
export const itRenders = (call: OperationCall, renderings: readonly Rendering[]): void => {
  for (const { case: name, change, format, width, height, count = 1 } of renderings)
    it(name, async () => {
      const answer = await expectOk(await call.send(call.valid(typeof change === 'function' ? change() : change)));
      expect(answer.images).toHaveLength(count);
      expect(new Set(answer.images).size).toBe(count);
      for (const image of answer.images) expect(await decode(image)).toEqual({ format, width, height });
    });
};

/** One test a refusal: the valid body changed as the refusal says answers a 422 located at its field. */
export const itRefuses = (call: OperationCall, refusals: readonly Refusal[]): void => {
  for (const refusal of refusals)
    it(`refuses ${refusal.case}`, async () => {
      await expectValidation(await call.send(call.valid(refusal.change)), ['body', ...refusal.at]);
    });
};

/**
 * The profiles a request may not use, named as the operation names them (`naming`): an unknown id and
 * another account's profile are 404 NOT_FOUND naming the id, a profile that is not READY a 400 naming it
 * and its status, and profiles of two model versions a 400 listing each version's ids.
 */
export const itRefusesProfilesItCannotUse = (
  call: OperationCall,
  world: { runtime: TestRuntime; accountId: string },
): void => {
  const named = (profileIds: string[]) => call.send(call.valid(naming(call.operation, profileIds)));

  it('answers 404 NOT_FOUND naming an unknown profile id', async () => {
    const body = await expectError(await named(['prf_doesnotexist']), 404, 'NOT_FOUND');
    expect(body.detail).toContain('prf_doesnotexist');
  });

  it("answers 404 for another account's profile, naming it", async () => {
    const other = await world.runtime.newAccount();
    const theirs = await seedProfile(other.accountId);
    const body = await expectError(await named([theirs.profileId]), 404, 'NOT_FOUND');
    expect(body.detail).toContain(theirs.profileId);
  });

  it.each(['VALIDATING', 'QUEUING', 'IN_PROGRESS', 'ERROR'] as const)(
    'answers 400 naming a %s profile and its status',
    async (status) => {
      const profile = await seedProfile(world.accountId, { status });
      const body = await expectError(await named([profile.profileId]), 400, 'PROFILE_NOT_READY');
      expect(body.detail).toContain(`${profile.profileId} (${status})`);
    },
  );

  it('answers 400 MIXED_PROFILE_MODEL_VERSIONS listing the ids of each version', async () => {
    const v1 = await seedProfile(world.accountId, { modelVersion: 'v1' });
    const v2 = await seedProfile(world.accountId, { modelVersion: 'v2' });
    const body = await expectError(await named([v1.profileId, v2.profileId]), 400, 'MIXED_PROFILE_MODEL_VERSIONS');
    expect(body.detail).toContain(`v1 (${v1.profileId})`);
    expect(body.detail).toContain(`v2 (${v2.profileId})`);
  });
};

export interface DecodedOutput {
  format: string | undefined;
  width: number | undefined;
  height: number | undefined;
}

/** Decodes an output image with sharp. */
export const decode = async (image: string | Buffer): Promise<DecodedOutput> => {
  const { format, width, height } = await sharp(
    typeof image === 'string' ? Buffer.from(image, 'base64') : image,
  ).metadata();
  return { format, width, height };
};

export const balanceOf = (accountId: string): Promise<number> => services().ledger.balance(accountId);

/** A server on 127.0.0.1 that serves the given bytes at `/<name>`; anything else is 404. */
export const startImageServer = async (
  files: Record<string, Buffer>,
): Promise<{ url(name: string): string; close(): Promise<void> }> => {
  const server = http.createServer((request, response) => {
    const body = files[(request.url ?? '/').slice(1)];
    if (!body) {
      response.writeHead(404).end('not found');
      return;
    }
    response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name) => `http://127.0.0.1:${port}/${name}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** A port on 127.0.0.1 that nothing listens on (bound, then released). */
export const closedPort = async (): Promise<number> => {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
};
