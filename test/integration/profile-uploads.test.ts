/**
 * @jest-environment ./test/faces/onnx-environment.js
 */
/**
 * Profile photos as direct uploads, black box: `upload:<upload_id>` in profiles/add and the preflight, as
 * the portal's profile studio sends them from a browser. One valid set (five uploaded photos of one
 * person); each test breaks one aspect of it. Under start:assets the IAM stand-in proves the functions
 * that read `uploads/` were granted it.
 */
import { TRAINING_PRICE_MICROS } from '../../functions/domain/catalog/pricing';
import { startPhotoServer, subjectPhoto, variedPhoto } from '../support/photos';
import { startTestRuntime, type TestRuntime } from '../support/runtime';
import { uploadBytes } from '../support/uploads';
import { balanceOf } from './images/support';

let runtime: TestRuntime;
let photos: Awaited<ReturnType<typeof startPhotoServer>>;
let subject: Buffer[];
/** Profiles whose training was started, so that afterAll waits for their executions. */
const started: string[] = [];

beforeAll(async () => {
  photos = await startPhotoServer();
  subject = await Promise.all(Array.from({ length: 6 }, (_, index) => subjectPhoto(index, 'jpeg')));
  runtime = await startTestRuntime({ timeScale: 0.01 });
});
afterAll(async () => {
  for (const profileId of started) await runtime.stepFunctions.waitForExecution(profileId);
  await runtime.close();
  await photos.close();
});

/** Uploads `bytes` as a browser would (with an Origin); answers the reference. */
const upload = (apiKey: string, bytes: Buffer, contentType = 'image/jpeg'): Promise<string> =>
  uploadBytes(runtime, apiKey, bytes, { contentType, origin: 'http://portal.example' });

/** A reference whose PUT never happened. */
const neverPut = async (apiKey: string): Promise<string> => {
  const response = await runtime.call('POST', '/v2/service/uploads', {
    apiKey,
    body: { size_bytes: 1000, content_type: 'image/jpeg' },
  });
  return ((await response.json()) as { reference: string }).reference;
};

const add = async (apiKey: string, body: Record<string, unknown>) => {
  const response = await runtime.call('POST', '/v2/service/profiles/add', { apiKey, body });
  if (response.status === 200) started.push(((await response.clone().json()) as { profile_id: string }).profile_id);
  return response;
};

const watch = async (apiKey: string, profileId: string) => {
  for (let i = 0; i < 600; i += 1) {
    const status = (await (
      await runtime.call('GET', `/v2/service/profiles/${profileId}/status`, { apiKey })
    ).json()) as { status: string; message: string };
    if (status.status === 'READY' || status.status === 'ERROR') return status;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`profile ${profileId} did not finish`);
};

/** The 422's details as [loc, msg] pairs. */
const refusals = async (response: Response) => {
  expect(response.status).toBe(422);
  return ((await response.json()) as { detail: Array<{ loc: unknown[]; msg: string; type: string }> }).detail.map(
    ({ loc, msg, type }) => ({ loc, msg, type }),
  );
};

const notFound = (index: number, reference: string) => ({
  loc: ['body', 'image_urls', index],
  type: 'value_error',
  msg: `Value error, image_urls[${index}]: upload ${reference.slice('upload:'.length)} not found (uploads belong to the account that made them, must be PUT before use, and expire 24 h after they arrive).`,
});

describe('profile photos as direct uploads', () => {
  it('train a profile to READY from uploads and URLs mixed, charged the tier', async () => {
    const account = await runtime.newAccount(10_000_000);
    const references = await Promise.all(subject.slice(0, 4).map((bytes) => upload(account.apiKey, bytes)));
    const url = photos.add('p4.jpg', subject[4], 'image/jpeg');
    const created = await add(account.apiKey, { image_urls: [...references, url], training_tier: 'fast' });
    expect(created.status).toBe(200);
    const { profile_id: profileId } = (await created.json()) as { profile_id: string };
    expect(await watch(account.apiKey, profileId)).toMatchObject({ status: 'READY' });
    expect(await balanceOf(account.accountId)).toBe(10_000_000 - TRAINING_PRICE_MICROS.fast);
  });

  it('are checked by the preflight as training checks them: faces, boxes and duplicates alike', async () => {
    const account = await runtime.newAccount(5_000_000);
    const references = await Promise.all(subject.slice(0, 4).map((bytes) => upload(account.apiKey, bytes)));
    const duplicate = await upload(account.apiKey, subject[0]);
    const faceless = await upload(account.apiKey, await variedPhoto(2));
    const response = await runtime.call('POST', '/v2/service/profiles/preflight', {
      apiKey: account.apiKey,
      body: { image_urls: [...references, duplicate, faceless], training_tier: 'fast' },
    });
    expect(response.status).toBe(200);
    const report = (await response.json()) as {
      accepted: boolean;
      usable_photos: number;
      photos: Array<{
        url: string;
        fetched: boolean;
        face: { count: number; boxes: unknown[] } | null;
        warnings: Array<{ code: string }>;
      }>;
    };
    expect(report).toMatchObject({ accepted: true, usable_photos: 5 });
    expect(report.photos.map((photo) => photo.url)).toEqual([...references, duplicate, faceless]);
    for (const photo of report.photos.slice(0, 4)) {
      expect(photo).toMatchObject({ fetched: true, face: { count: 1 }, warnings: [] });
      expect(photo.face!.boxes).toHaveLength(1);
    }
    expect(report.photos[4]!.warnings.map((warning) => warning.code)).toContain('duplicate');
    expect(report.photos[5]).toMatchObject({ face: { count: 0, boxes: [] } });
    expect(report.photos[5]!.warnings.map((warning) => warning.code)).toEqual(['no_face']);
    expect(await balanceOf(account.accountId)).toBe(5_000_000);
  });

  it("refuse another account's upload, an unknown one and one never PUT with a 422 naming each entry, creating nothing", async () => {
    const account = await runtime.newAccount(10_000_000);
    const other = await runtime.newAccount();
    const mine = await Promise.all(subject.slice(0, 2).map((bytes) => upload(account.apiKey, bytes)));
    const theirs = await upload(other.apiKey, subject[2]);
    const unknown = 'upload:upl_does_not_exist';
    const unwritten = await neverPut(account.apiKey);
    const body = { image_urls: [...mine, theirs, unknown, unwritten], training_tier: 'fast' };
    const expected = [notFound(2, theirs), notFound(3, unknown), notFound(4, unwritten)];

    expect(await refusals(await add(account.apiKey, body))).toEqual(expected);
    expect(await balanceOf(account.accountId)).toBe(10_000_000);
    const listed = await runtime.call('GET', '/v2/service/profiles/ids', { apiKey: account.apiKey });
    expect(((await listed.json()) as { profiles: unknown[] }).profiles).toEqual([]);

    const preflight = await runtime.call('POST', '/v2/service/profiles/preflight', { apiKey: account.apiKey, body });
    expect(await refusals(preflight)).toEqual(expected);
  });

  it('refuse a malformed reference with a 422 at that entry, and keep refusing a URL of another scheme', async () => {
    const account = await runtime.newAccount(10_000_000);
    const references = await Promise.all(subject.slice(0, 3).map((bytes) => upload(account.apiKey, bytes)));
    const body = {
      image_urls: [...references, 'upload:not an id', 'ftp://example.com/a.jpg'],
      training_tier: 'fast',
    };
    const details = await refusals(await add(account.apiKey, body));
    expect(details.map(({ loc, type }) => ({ loc, type }))).toEqual([
      { loc: ['body', 'image_urls', 3], type: 'string_pattern_mismatch' },
      { loc: ['body', 'image_urls', 4], type: 'url_scheme' },
    ]);
  });
});
