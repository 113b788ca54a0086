/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * POST /v2/service/generate, black box: the happy path, its 422s, and `[[id]]` references (its only
 * way to name a profile). One valid request (`validGenerate`); each test breaks one aspect of it.
 */

import { facePhoto, seedFaceProfile } from '../../support/faces';
import { seedProfile } from '../../support/profiles';
import { startTestRuntime, type TestRuntime } from '../../support/runtime';
import { decode, expectError, expectOk, expectValidation } from './support';

let runtime: TestRuntime;
let apiKey: string;
let accountId: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  ({ apiKey, accountId } = await runtime.newAccount(1_000_000_000));
});
afterAll(() => runtime.close());

/** A READY profile as training leaves it: a face template and reference crop of a real face. */
const trainedProfile = (photo = 'astronaut.jpg', faces = [0]) => seedFaceProfile(accountId, facePhoto(photo), faces);

const validGenerate = (overrides: Record<string, unknown> = {}) => ({ prompt: 'a lighthouse at dusk', ...overrides });
const generate = (body: unknown, key = apiKey) => runtime.call('POST', '/v2/service/generate', { apiKey: key, body });

describe('generate: happy path', () => {
  it('answers one square JPEG at 1K by default (auto with no input is square)', async () => {
    const answer = await expectOk(await generate(validGenerate()));
    expect(answer).toEqual({
      known_subjects: { counts: {} },
      recognized_faces: [],
      images: [expect.any(String)],
      download_urls: [],
    });
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width: 1024, height: 1024 });
  });

  it('names the job it was recorded as in X-Job-Id, whose poll shows its cost', async () => {
    const response = await generate(validGenerate({ num_output_images: 2 }));
    const jobId = response.headers.get('X-Job-Id');
    expect(jobId).toMatch(/^job_/);
    await expectOk(response);
    const job = await runtime.call('GET', `/v2/service/jobs/${jobId}`, { apiKey });
    expect(await job.json()).toMatchObject({
      job_id: jobId,
      status: 'succeeded',
      operation: 'generate',
      cost: { reserved: '0.16', final: '0.16' },
    });
  });

  it('answers PNG when output_format is png', async () => {
    const answer = await expectOk(await generate(validGenerate({ output_format: 'png' })));
    expect(await decode(answer.images[0])).toEqual({ format: 'png', width: 1024, height: 1024 });
  });

  it('renders 2K at the requested aspect ratio', async () => {
    const answer = await expectOk(await generate(validGenerate({ resolution: '2K', aspect_ratio: '9:16' })));
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width: 1152, height: 2048 });
  });

  it('rounds the short edge to a multiple of 16 (3:4 at 1K is 768x1024)', async () => {
    const answer = await expectOk(await generate(validGenerate({ aspect_ratio: '3:4' })));
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width: 768, height: 1024 });
  });

  it('returns N distinct images for num_output_images N', async () => {
    const answer = await expectOk(await generate(validGenerate({ num_output_images: 3 })));
    expect(answer.images).toHaveLength(3);
    expect(new Set(answer.images).size).toBe(3);
    for (const image of answer.images)
      expect(await decode(image)).toEqual({ format: 'jpeg', width: 1024, height: 1024 });
  });

  it('has no profile_ids field: ids listed there are ignored, not looked up', async () => {
    const answer = await expectOk(await generate(validGenerate({ profile_ids: ['prf_doesnotexist'] })));
    expect(answer.known_subjects.counts).toEqual({});
  });
});

describe('generate: request validation (422)', () => {
  it('requires a prompt', async () => {
    const detail = await expectValidation(await generate({}), ['body', 'prompt']);
    expect(detail.type).toBe('missing');
  });

  it('refuses an empty prompt', async () => {
    await expectValidation(await generate(validGenerate({ prompt: '' })), ['body', 'prompt']);
  });

  it('refuses a prompt of only whitespace', async () => {
    await expectValidation(await generate(validGenerate({ prompt: '  \n ' })), ['body', 'prompt']);
  });

  it('refuses a prompt over 5000 characters', async () => {
    await expectValidation(await generate(validGenerate({ prompt: 'p'.repeat(5001) })), ['body', 'prompt']);
  });

  it('refuses num_output_images 5', async () => {
    await expectValidation(await generate(validGenerate({ num_output_images: 5 })), ['body', 'num_output_images']);
  });

  it('refuses async: true with response_mode bytes, at response_mode', async () => {
    await expectValidation(await generate(validGenerate({ async: true, response_mode: 'bytes' })), [
      'body',
      'response_mode',
    ]);
  });

  it('refuses callback_url without async: true, at callback_url', async () => {
    await expectValidation(await generate(validGenerate({ callback_url: 'https://example.com/hook' })), [
      'body',
      'callback_url',
    ]);
  });
});

describe('generate: [[id]] references', () => {
  it('counts a [[id]] named in the prompt once per output', async () => {
    const profile = await trainedProfile();
    const answer = await expectOk(
      await generate(validGenerate({ prompt: `[[${profile.profileId}]] at the lighthouse`, num_output_images: 2 })),
    );
    expect(answer.known_subjects.counts).toEqual({ [profile.profileId]: 2 });
  });

  it('counts each of two named profiles', async () => {
    const first = await trainedProfile();
    const second = await trainedProfile('yale-lightings.jpg', [0, 1]);
    const answer = await expectOk(
      await generate(validGenerate({ prompt: `[[${first.profileId}]] and [[${second.profileId}]] on a boat` })),
    );
    expect(answer.known_subjects.counts).toEqual({ [first.profileId]: 1, [second.profileId]: 1 });
  });

  it('accepts a named READY profile without a face template, and counts it nowhere: it cannot be matched', async () => {
    const profile = await seedProfile(accountId);
    const answer = await expectOk(
      await generate(validGenerate({ prompt: `[[${profile.profileId}]] at the lighthouse` })),
    );
    expect(answer.known_subjects.counts).toEqual({});
  });

  it('answers 404 naming an unknown [[id]]', async () => {
    const body = await expectError(
      await generate(validGenerate({ prompt: '[[prf_nobodyhere]] waving' })),
      404,
      'NOT_FOUND',
    );
    expect(body.detail).toContain('prf_nobodyhere');
  });

  it("answers 404 for another account's profile named in the prompt", async () => {
    const other = await runtime.newAccount();
    const theirs = await seedProfile(other.accountId);
    const body = await expectError(
      await generate(validGenerate({ prompt: `[[${theirs.profileId}]] waving` })),
      404,
      'NOT_FOUND',
    );
    expect(body.detail).toContain(theirs.profileId);
  });

  it('answers 400 naming a named profile that is not READY and its status', async () => {
    const profile = await seedProfile(accountId, { status: 'QUEUING' });
    const body = await expectError(
      await generate(validGenerate({ prompt: `[[${profile.profileId}]] waving` })),
      400,
      'PROFILE_NOT_READY',
    );
    expect(body.detail).toContain(`${profile.profileId} (QUEUING)`);
  });

  it('answers 400 MIXED_PROFILE_MODEL_VERSIONS for named profiles of v1 and v2', async () => {
    const v1 = await seedProfile(accountId, { modelVersion: 'v1' });
    const v2 = await seedProfile(accountId, { modelVersion: 'v2' });
    const body = await expectError(
      await generate(validGenerate({ prompt: `[[${v1.profileId}]] meets [[${v2.profileId}]]` })),
      400,
      'MIXED_PROFILE_MODEL_VERSIONS',
    );
    expect(body.detail).toContain(`v1 (${v1.profileId})`);
    expect(body.detail).toContain(`v2 (${v2.profileId})`);
  });
});
