/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * POST /v2/service/edit, black box: the happy path, every 422 of the request body, and the profile
 * reference rules. One valid request (`validEdit`); each test breaks one aspect of it.
 */

import { refusalsOf } from '../../support/builders/requests';
import { facePhoto, seedFaceProfile } from '../../support/faces';
import { seedProfile } from '../../support/profiles';
import {
  b64,
  balanceOf,
  COLOURS,
  expectError,
  expectOk,
  expectValidation,
  flatImage,
  jpeg,
  operationCall,
  useImageWorld,
} from './support';

const world = useImageWorld(async () => ({
  /** 64×48 red PNG. */
  landscape: await flatImage(64, 48, 'png', COLOURS.red),
  /** 48×64 blue PNG. */
  portrait: await flatImage(48, 64, 'png', COLOURS.blue),
}));

const call = operationCall('edit', world, () => ({ input: world.landscape }));
const { valid: validEdit, send: edit } = call;

describe('edit: happy path', () => {
  call.itRendersLikeEveryOperation({
    byDefault: 'answers one JPEG at 1K in the input aspect ratio by default',
    width: 1024,
    height: 768,
    count: 4,
  });

  call.itRenders([
    jpeg(
      'follows a portrait input under the default auto aspect ratio',
      () => ({ images: [b64(world.portrait)] }),
      768,
      1024,
    ),
    jpeg('answers jpg when output_format is jpg', { output_format: 'jpg' }, 1024, 768),
    jpeg('renders 2K at the requested aspect ratio', { resolution: '2K', aspect_ratio: '16:9' }, 2048, 1152),
    jpeg(
      'accepts several input images',
      () => ({ images: [b64(world.landscape), b64(world.portrait), b64(world.landscape)] }),
      1024,
      768,
    ),
    jpeg(
      'accepts ten input images',
      () => ({ images: Array.from({ length: 10 }, () => b64(world.landscape)) }),
      1024,
      768,
    ),
  ]);

  it('takes no prompt (it defaults to empty)', async () => {
    const { prompt: _omitted, ...body } = validEdit();
    await expectOk(await edit(body));
  });

  it('accepts a prompt of exactly 5000 characters', async () => {
    await expectOk(await edit(validEdit({ prompt: 'p'.repeat(5000) })));
  });

  it('ignores unknown fields', async () => {
    await expectOk(await edit(validEdit({ colour_scheme: 'sepia' })));
  });

  it('is served under /v1 too, marked deprecated', async () => {
    const response = await world.runtime.call('POST', '/v1/service/edit', { apiKey: world.apiKey, body: validEdit() });
    expect(response.headers.get('deprecation')).toBe('true');
    expect(response.headers.get('link')).toBe('</v2/service/edit>; rel="successor-version"');
    await expectOk(response);
  });
});

describe('edit: authentication', () => {
  it('answers 403 MISSING_API_KEY without the header, with the deprecation header', async () => {
    await expectError(
      await world.runtime.call('POST', '/v2/service/edit', { body: validEdit() }),
      403,
      'MISSING_API_KEY',
    );
  });

  it('answers 401 INVALID_API_KEY for an unknown key', async () => {
    await expectError(await edit(validEdit(), 'isk_not-a-key'), 401, 'INVALID_API_KEY');
  });
});

describe('edit: request validation (422)', () => {
  it('requires images', async () => {
    const { images: _omitted, ...body } = validEdit();
    const detail = await expectValidation(await edit(body), ['body', 'images']);
    expect(detail.type).toBe('missing');
  });

  it('requires at least one image', async () => {
    await expectValidation(await edit(validEdit({ images: [] })), ['body', 'images']);
  });

  it('takes at most 10 images', async () => {
    await expectValidation(await edit(validEdit({ images: Array.from({ length: 11 }, () => b64(world.landscape)) })), [
      'body',
      'images',
    ]);
  });

  it('locates a non-string image at its index', async () => {
    const images = [b64(world.landscape), b64(world.landscape), b64(world.landscape), 42];
    await expectValidation(await edit(validEdit({ images })), ['body', 'images', 3]);
  });

  it('locates an empty image string at its index', async () => {
    const images = [b64(world.landscape), b64(world.landscape), b64(world.landscape), ''];
    await expectValidation(await edit(validEdit({ images })), ['body', 'images', 3]);
  });

  call.itRefuses(refusalsOf('edit'));

  it('refuses a body that is not JSON, at the character where Python stops reading', async () => {
    const response = await world.runtime.call('POST', '/v2/service/edit', {
      apiKey: world.apiKey,
      rawBody: '{"images": [',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(await expectValidation(response, ['body', 12])).toEqual({
      type: 'json_invalid',
      loc: ['body', 12],
      msg: 'JSON decode error',
      input: {},
      ctx: { error: 'Expecting value' },
    });
  });

  it('charges nothing for a refused request', async () => {
    const account = await world.runtime.newAccount(1_000_000);
    await expectValidation(await edit(validEdit({ num_output_images: 5 }), account.apiKey), [
      'body',
      'num_output_images',
    ]);
    expect(await balanceOf(account.accountId)).toBe(1_000_000);
  });
});

describe('edit: profile references', () => {
  call.itRefusesProfilesItCannotUse();

  it('answers 404 naming an unknown [[id]] in the prompt', async () => {
    const body = await expectError(
      await edit(validEdit({ prompt: 'put [[prf_nobodyhere]] on a beach' })),
      404,
      'NOT_FOUND',
    );
    expect(body.detail).toContain('prf_nobodyhere');
  });

  it('counts a [[id]] in the prompt and profile_ids together for the version rule', async () => {
    const v1 = await seedProfile(world.accountId, { modelVersion: 'v1' });
    const v2 = await seedProfile(world.accountId, { modelVersion: 'v2' });
    const response = await edit(validEdit({ prompt: `next to [[${v2.profileId}]]`, profile_ids: [v1.profileId] }));
    const body = await expectError(response, 400, 'MIXED_PROFILE_MODEL_VERSIONS');
    expect(body.detail).toContain(v1.profileId);
    expect(body.detail).toContain(v2.profileId);
  });

  // Real faces (test/fixtures/faces/): recognition counts who the outputs show.
  const withFace = (overrides: Record<string, unknown> = {}) =>
    validEdit({ images: [b64(facePhoto('astronaut.jpg'))], ...overrides });

  it('merges [[id]] in the prompt with profile_ids: both subjects are counted', async () => {
    const inImage = await seedFaceProfile(world.accountId, facePhoto('astronaut.jpg'));
    const named = await seedFaceProfile(world.accountId, facePhoto('yale-lightings.jpg'), [0, 1]);
    const answer = await expectOk(
      await edit(withFace({ prompt: `add [[${named.profileId}]] beside them`, profile_ids: [inImage.profileId] })),
    );
    expect(answer.known_subjects.counts).toEqual({ [inImage.profileId]: 1, [named.profileId]: 1 });
  });

  it('recognises a profile from profile_ids when an input shows it', async () => {
    const profile = await seedFaceProfile(world.accountId, facePhoto('astronaut.jpg'));
    const answer = await expectOk(await edit(withFace({ profile_ids: [profile.profileId] })));
    expect(answer.known_subjects.counts).toEqual({ [profile.profileId]: 1 });
  });

  it('does not count a referenced profile that no input shows', async () => {
    const profile = await seedFaceProfile(world.accountId, facePhoto('yale-lightings.jpg'), [0, 1]);
    const answer = await expectOk(await edit(withFace({ profile_ids: [profile.profileId] })));
    expect(answer.known_subjects.counts).toEqual({});
  });

  it('serves a named READY profile with no face template: not checked, not billed, never a 400', async () => {
    const account = await world.runtime.newAccount(1_000_000);
    const profile = await seedProfile(account.accountId);
    const answer = await expectOk(await edit(validEdit({ prompt: `[[${profile.profileId}]] waving` }), account.apiKey));
    expect(answer.identity?.not_checked).toEqual([profile.profileId]);
    expect(answer.known_subjects.counts).toEqual({});
  });

  it('serves a profile_ids profile whose template is of another face model and has no photos: sent, not checked', async () => {
    const account = await world.runtime.newAccount(1_000_000);
    const trained = await seedFaceProfile(account.accountId, facePhoto('astronaut.jpg'));
    const stale = await seedProfile(account.accountId, {
      face: { ...trained.face!, modelId: 'an-older-face-model/1' },
    });
    const answer = await expectOk(await edit(withFace({ profile_ids: [stale.profileId] }), account.apiKey));
    expect(answer.identity?.expected).toEqual([stale.profileId]);
    expect(answer.identity?.not_checked).toEqual([stale.profileId]);
    expect(answer.known_subjects.counts).toEqual({});
  });

  it('preserves no identity when the request references no profile, even if one matches', async () => {
    const own = await world.runtime.newAccount();
    await seedFaceProfile(own.accountId, facePhoto('astronaut.jpg'));
    const answer = await expectOk(await edit(withFace(), own.apiKey));
    expect(answer.known_subjects.counts).toEqual({});
  });

  it('treats text between double brackets that is not an id as plain prompt text', async () => {
    const answer = await expectOk(await edit(validEdit({ prompt: 'a sign reading [[ not an id ]]' })));
    expect(answer.known_subjects.counts).toEqual({});
  });
});
