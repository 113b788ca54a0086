/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * POST /v2/service/generate, black box: the happy path, its 422s, and `[[id]]` references (its only
 * way to name a profile). One valid request (`validGenerate`); each test breaks one aspect of it.
 */

import { refusalsOf } from '../../support/builders/requests';
import { facePhoto, seedFaceProfile } from '../../support/faces';
import { jobCount } from '../../support/ledger';
import { seedProfile } from '../../support/profiles';
import { expectOk, expectValidation, jpeg, operationCall, useImageWorld } from './support';

const world = useImageWorld();

/** A READY profile as training leaves it: a face template and reference crop of a real face. */
const trainedProfile = (photo = 'astronaut.jpg', faces = [0]) =>
  seedFaceProfile(world.accountId, facePhoto(photo), faces);

const call = operationCall('generate', world);
const { valid: validGenerate, send: generate } = call;

describe('generate: happy path', () => {
  call.itRendersLikeEveryOperation({
    byDefault: 'answers one square JPEG at 1K by default (auto with no input is square)',
    width: 1024,
    height: 1024,
    count: 3,
  });

  it('names the job it was recorded as in X-Job-Id, whose poll shows its cost', async () => {
    const response = await generate(validGenerate({ num_output_images: 2 }));
    const jobId = response.headers.get('X-Job-Id');
    expect(jobId).toMatch(/^job_/);
    await expectOk(response);
    const job = await world.runtime.call('GET', `/v2/service/jobs/${jobId}`, { apiKey: world.apiKey });
    expect(await job.json()).toMatchObject({
      job_id: jobId,
      status: 'succeeded',
      operation: 'generate',
      cost: { reserved: '0.16', final: '0.16' },
    });
  });

  call.itRenders([
    jpeg('renders 2K at the requested aspect ratio', { resolution: '2K', aspect_ratio: '9:16' }, 1152, 2048),
    jpeg('rounds the short edge to a multiple of 16 (3:4 at 1K is 768x1024)', { aspect_ratio: '3:4' }, 768, 1024),
  ]);

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

  call.itRefuses(refusalsOf('generate'));
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

  it('serves a named READY profile without a face template: not checked, not billed, never a 400', async () => {
    const account = await world.runtime.newAccount(1_000_000);
    const profile = await seedProfile(account.accountId);
    const answer = await expectOk(
      await generate(validGenerate({ prompt: `[[${profile.profileId}]] at the lighthouse` }), account.apiKey),
    );
    expect(answer.identity?.not_checked).toEqual([profile.profileId]);
    expect(answer.known_subjects.counts).toEqual({});
    expect(await jobCount(account.accountId)).toBe(1);
  });

  call.itRefusesProfilesItCannotUse();
});
