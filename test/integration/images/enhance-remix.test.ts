/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * POST /v2/service/enhance and /remix, black box: both are pinned to the default model at 2K and follow
 * the input's aspect ratio; they refuse the output choices of edit and generate with a 422 at that field,
 * and recognise profiles from profile_ids in their (content) input.
 */

import { refusalsOf } from '../../support/builders/requests';
import { facePhoto, seedFaceProfile } from '../../support/faces';
import {
  b64,
  COLOURS,
  decode,
  expectOk,
  expectValidation,
  flatImage,
  gradientImage,
  jpeg,
  operationCall,
  useImageWorld,
} from './support';

const world = useImageWorld(async () => ({
  /** 64×48 red-to-white gradient PNG. */
  landscape: await gradientImage(64, 48, COLOURS.red, COLOURS.white),
  /** 48×64 blue PNG. */
  portrait: await flatImage(48, 64, 'png', COLOURS.blue),
}));

const images = () => ({ input: world.landscape, reference: world.portrait });
const enhanceCall = operationCall('enhance', world, images);
const remixCall = operationCall('remix', world, images);
const { valid: validEnhance, send: enhance } = enhanceCall;
const { valid: validRemix, send: remix } = remixCall;

describe('enhance: happy path', () => {
  enhanceCall.itRendersLikeEveryOperation({
    byDefault: 'answers one JPEG with a 2048 px long edge in the input aspect ratio',
    width: 2048,
    height: 1536,
    count: 2,
  });

  enhanceCall.itRenders([
    jpeg('keeps a portrait input portrait', () => ({ image: b64(world.portrait) }), 1536, 2048),
    jpeg('takes a prompt that guides the enhancement', { prompt: 'warmer skin tones' }, 2048, 1536),
  ]);

  it('rounds the short edge to a multiple of 16', async () => {
    const answer = await expectOk(await enhance(validEnhance({ image: b64(await flatImage(70, 30)) })));
    // 2048 / (70 / 30) = 877.7, the nearest multiple of 16 is 880.
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width: 2048, height: 880 });
  });
});

describe('remix: happy path', () => {
  remixCall.itRendersLikeEveryOperation({
    byDefault: "answers one JPEG with a 2048 px long edge in the input image's aspect ratio, not the reference's",
    width: 2048,
    height: 1536,
    count: 3,
  });

  remixCall.itRenders([jpeg('takes a prompt that steers the remix', { prompt: 'keep the composition' }, 2048, 1536)]);
});

describe('enhance and remix: request validation (422)', () => {
  it('enhance requires image', async () => {
    const detail = await expectValidation(await enhance({}), ['body', 'image']);
    expect(detail.type).toBe('missing');
  });

  it('remix requires input_image', async () => {
    const { input_image: _omitted, ...body } = validRemix();
    await expectValidation(await remix(body), ['body', 'input_image']);
  });

  it('remix requires reference_image', async () => {
    const { reference_image: _omitted, ...body } = validRemix();
    await expectValidation(await remix(body), ['body', 'reference_image']);
  });

  describe('enhance', () => enhanceCall.itRefuses(refusalsOf('enhance')));

  describe('remix', () => remixCall.itRefuses(refusalsOf('remix')));
});

describe('enhance and remix: profiles', () => {
  // Real faces (test/fixtures/faces/): recognition counts who the outputs show.
  const astronaut = () => b64(facePhoto('astronaut.jpg'));

  it('enhance recognises a profile from profile_ids shown in the image', async () => {
    const profile = await seedFaceProfile(world.accountId, facePhoto('astronaut.jpg'));
    const answer = await expectOk(
      await enhance(validEnhance({ image: astronaut(), profile_ids: [profile.profileId], num_output_images: 2 })),
    );
    expect(answer.known_subjects.counts).toEqual({ [profile.profileId]: 2 });
  });

  it('enhance does not count a referenced profile the image does not show', async () => {
    const profile = await seedFaceProfile(world.accountId, facePhoto('astronaut.jpg'));
    const answer = await expectOk(await enhance(validEnhance({ profile_ids: [profile.profileId] })));
    expect(answer.known_subjects.counts).toEqual({});
  });

  it('remix recognises a profile shown in input_image', async () => {
    const profile = await seedFaceProfile(world.accountId, facePhoto('astronaut.jpg'));
    const answer = await expectOk(
      await remix(validRemix({ input_image: astronaut(), profile_ids: [profile.profileId] })),
    );
    expect(answer.known_subjects.counts).toEqual({ [profile.profileId]: 1 });
  });

  it('remix does not take the subject from the style reference', async () => {
    const profile = await seedFaceProfile(world.accountId, facePhoto('astronaut.jpg'));
    const answer = await expectOk(
      await remix(validRemix({ reference_image: astronaut(), profile_ids: [profile.profileId] })),
    );
    expect(answer.known_subjects.counts).toEqual({});
  });

  describe('enhance', () => enhanceCall.itRefusesProfilesItCannotUse());

  describe('remix', () => remixCall.itRefusesProfilesItCannotUse());

  it("enhance's prompt only guides: an unknown [[id]] there is not looked up", async () => {
    const answer = await expectOk(await enhance(validEnhance({ prompt: 'sharpen [[prf_nobodyhere]]' })));
    expect(answer.known_subjects.counts).toEqual({});
  });

  it("enhance's prompt only guides: a [[id]] there is not a recognised subject", async () => {
    const profile = await seedFaceProfile(world.accountId, facePhoto('astronaut.jpg'));
    const answer = await expectOk(await enhance(validEnhance({ prompt: `sharpen [[${profile.profileId}]]` })));
    expect(answer.known_subjects.counts).toEqual({});
  });
});
