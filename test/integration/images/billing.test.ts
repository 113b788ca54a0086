/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * What the four synchronous operations charge, read from the ledger balance before and after: success
 * settles the final price, every refusal or failure leaves the balance as it was, and a ceiling (the most
 * the request can cost, every identity surcharge that may apply included) that does not fit is a 402
 * with nothing charged. Each test uses a fresh account. (Timeouts: timeout.test.ts.)
 */

import { services } from '../../../bin/local-aws/services';
import { findBaseModel, PINNED_PRICES } from '../../../functions/domain/catalog/catalog';
import { formatUsd as usdText } from '../../../functions/domain/shared/money';
import { facePhoto, seedFaceProfile } from '../../support/faces';
import { startTestRuntime, type TestRuntime } from '../../support/runtime';
import { b64, balanceOf, COLOURS, expectError, expectOk, flatImage } from './support';

const OPENING_MICROS = 1_000_000;

let runtime: TestRuntime;
let input: Buffer;
let reference: Buffer;

beforeAll(async () => {
  runtime = await startTestRuntime();
  input = await flatImage(64, 48, 'png', COLOURS.red);
  reference = await flatImage(64, 48, 'png', COLOURS.blue);
});
afterAll(() => runtime.close());

const call = (operation: string, apiKey: string, body: unknown) =>
  runtime.call('POST', `/v2/service/${operation}`, { apiKey, body });

/** One valid request per operation. */
const validBodies = () =>
  ({
    edit: { prompt: 'brighter', images: [b64(input)] },
    generate: { prompt: 'a lighthouse' },
    enhance: { image: b64(input) },
    remix: { input_image: b64(input), reference_image: b64(reference) },
  }) as const;
type OperationName = keyof ReturnType<typeof validBodies>;
const OPERATIONS: OperationName[] = ['edit', 'generate', 'enhance', 'remix'];

/** Runs `body` on a fresh account and returns the response and what it cost. */
const charged = async (
  operation: OperationName,
  overrides: Record<string, unknown> = {},
  openingMicros = OPENING_MICROS,
) => {
  const account = await runtime.newAccount(openingMicros);
  const before = await balanceOf(account.accountId);
  const response = await call(operation, account.apiKey, { ...validBodies()[operation], ...overrides });
  return { response, account, costMicros: () => balanceOf(account.accountId).then((after) => before - after) };
};

const flatPrice = (modelId: string, resolution: '1K' | '2K' | '4K'): number => {
  const pricing = findBaseModel(modelId)!.pricing;
  if (pricing.metering !== 'flat') throw new Error(`${modelId} is not flat-priced`);
  return pricing.perImageMicros[resolution]!;
};
const SURCHARGE_MICROS = findBaseModel('base-c-2')!.identitySurchargeMicros;

describe('success settles the price', () => {
  it('edit on the default model at 1K costs 80 000 per image', async () => {
    const { response, costMicros } = await charged('edit');
    await expectOk(response);
    expect(await costMicros()).toBe(80_000);
    expect(flatPrice('base-c-2', '1K')).toBe(80_000);
  });

  it('generate on the default model at 1K costs 80 000 per image', async () => {
    const { response, costMicros } = await charged('generate');
    await expectOk(response);
    expect(await costMicros()).toBe(80_000);
  });

  it('charges per output image', async () => {
    const { response, costMicros } = await charged('edit', { num_output_images: 3 });
    await expectOk(response);
    expect(await costMicros()).toBe(240_000);
  });

  it('charges the 2K tier of the model', async () => {
    const { response, costMicros } = await charged('generate', { resolution: '2K' });
    await expectOk(response);
    expect(await costMicros()).toBe(flatPrice('base-c-2', '2K'));
  });

  it("charges another flat model's own price", async () => {
    const { response, costMicros } = await charged('generate', { base_model: 'base-a-2' });
    await expectOk(response);
    expect(await costMicros()).toBe(flatPrice('base-a-2', '1K'));
  });

  it('charges a megapixel-metered model by the output megapixels', async () => {
    const { response, costMicros } = await charged('generate', { base_model: 'base-a-2-pro' });
    await expectOk(response);
    const pricing = findBaseModel('base-a-2-pro')!.pricing;
    if (pricing.metering !== 'megapixels') throw new Error('base-a-2-pro is megapixel-metered');
    // No auto on this model: 4:3 at 1K is 1024x768.
    const expected = Math.max(
      pricing.floorPerImageMicros,
      Math.ceil((1024 * 768 * pricing.perMegapixelMicros) / 1_000_000),
    );
    expect(await costMicros()).toBe(expected);
  });

  it('enhance costs 120 000 per image', async () => {
    const { response, costMicros } = await charged('enhance', { num_output_images: 2 });
    await expectOk(response);
    expect(await costMicros()).toBe(240_000);
    expect(PINNED_PRICES.perImageMicros).toBe(120_000);
  });

  it('remix costs 120 000 per image', async () => {
    const { response, costMicros } = await charged('remix');
    await expectOk(response);
    expect(await costMicros()).toBe(PINNED_PRICES.perImageMicros);
  });
});

describe('identity: known_subjects counts, summed over outputs, priced', () => {
  // A real face (test/fixtures/faces/): the profile's template is made of it, and recognition finds it in the outputs.
  const portrait = () => facePhoto('astronaut.jpg');
  const withPortrait = { edit: { prompt: 'brighter', images: [b64(portrait())] }, enhance: { image: b64(portrait()) } };

  it('edit adds the surcharge per recognised occurrence (counts summed over outputs)', async () => {
    const account = await runtime.newAccount(OPENING_MICROS);
    const profile = await seedFaceProfile(account.accountId, portrait());
    const response = await call('edit', account.apiKey, {
      ...withPortrait.edit,
      profile_ids: [profile.profileId],
      num_output_images: 3,
    });
    const answer = await expectOk(response);
    expect(answer.known_subjects.counts).toEqual({ [profile.profileId]: 3 });
    expect(OPENING_MICROS - (await balanceOf(account.accountId))).toBe(3 * 80_000 + 3 * SURCHARGE_MICROS);
    expect(SURCHARGE_MICROS).toBe(30_000);
  });

  it('generate adds the surcharge for a [[id]] named in the prompt, per output it is recognised in', async () => {
    const account = await runtime.newAccount(OPENING_MICROS);
    const profile = await seedFaceProfile(account.accountId, portrait());
    const answer = await expectOk(
      await call('generate', account.apiKey, { prompt: `[[${profile.profileId}]] on a boat`, num_output_images: 2 }),
    );
    expect(answer.known_subjects.counts).toEqual({ [profile.profileId]: 2 });
    expect(OPENING_MICROS - (await balanceOf(account.accountId))).toBe(2 * (80_000 + SURCHARGE_MICROS));
  });

  it('enhance with a recognised profile costs 150 000 per image', async () => {
    const account = await runtime.newAccount(OPENING_MICROS);
    const profile = await seedFaceProfile(account.accountId, portrait());
    const answer = await expectOk(
      await call('enhance', account.apiKey, {
        ...withPortrait.enhance,
        profile_ids: [profile.profileId],
        num_output_images: 2,
      }),
    );
    expect(answer.known_subjects.counts).toEqual({ [profile.profileId]: 2 });
    expect(OPENING_MICROS - (await balanceOf(account.accountId))).toBe(2 * 150_000);
    expect(PINNED_PRICES.perImageWithProfileMicros).toBe(150_000);
  });

  it('remix with a recognised profile costs 150 000 per image', async () => {
    const account = await runtime.newAccount(OPENING_MICROS);
    const profile = await seedFaceProfile(account.accountId, portrait());
    const answer = await expectOk(
      await call('remix', account.apiKey, {
        input_image: b64(portrait()),
        reference_image: b64(reference),
        profile_ids: [profile.profileId],
      }),
    );
    expect(answer.known_subjects.counts).toEqual({ [profile.profileId]: 1 });
    expect(OPENING_MICROS - (await balanceOf(account.accountId))).toBe(150_000);
  });

  it('a referenced profile that is not recognised adds nothing', async () => {
    const account = await runtime.newAccount(OPENING_MICROS);
    const profile = await seedFaceProfile(account.accountId, portrait());
    const answer = await expectOk(
      await call('enhance', account.apiKey, { ...validBodies().enhance, profile_ids: [profile.profileId] }),
    );
    expect(answer.known_subjects.counts).toEqual({});
    expect(OPENING_MICROS - (await balanceOf(account.accountId))).toBe(120_000);
  });

  it('the identity surcharge is reserved with the job, so settling it never takes the balance below zero', async () => {
    const account = await runtime.newAccount(80_000 + SURCHARGE_MICROS);
    const profile = await seedFaceProfile(account.accountId, portrait());
    await expectOk(await call('edit', account.apiKey, { ...withPortrait.edit, profile_ids: [profile.profileId] }));
    expect(await balanceOf(account.accountId)).toBe(0);
  });
});

describe('refusals and failures charge nothing', () => {
  it.each(OPERATIONS)('%s blocked by moderation: 400 CONTENT_MODERATION, balance unchanged', async (operation) => {
    const { response, costMicros } = await charged(operation, { prompt: 'sandbox:moderation' });
    await expectError(response, 400, 'CONTENT_MODERATION');
    expect(await costMicros()).toBe(0);
  });

  it.each(OPERATIONS)('%s finishing without an image: 422 NO_IMAGE_GENERATED, balance unchanged', async (operation) => {
    const { response, costMicros } = await charged(operation, { prompt: 'sandbox:no-image' });
    await expectError(response, 422, 'NO_IMAGE_GENERATED');
    expect(await costMicros()).toBe(0);
  });

  it.each(OPERATIONS)('%s with an engine failure: 500 INTERNAL_ERROR, balance unchanged', async (operation) => {
    const { response, costMicros } = await charged(operation, { prompt: 'sandbox:fail' });
    await expectError(response, 500, 'INTERNAL_ERROR');
    expect(await costMicros()).toBe(0);
  });

  it('an engine failure leaks no internals in its detail', async () => {
    const { response } = await charged('edit', { prompt: 'sandbox:fail' });
    const body = await expectError(response, 500, 'INTERNAL_ERROR');
    expect(body.detail).not.toMatch(/sandbox|stack|Error:/i);
  });

  it('an input refused with 400 charges nothing', async () => {
    const { response, costMicros } = await charged('edit', { images: ['not base64!'] });
    await expectError(response, 400, 'INVALID_REQUEST');
    expect(await costMicros()).toBe(0);
  });
});

describe('402 INSUFFICIENT_BALANCE', () => {
  it.each([
    ['edit', {}, 80_000],
    ['generate', { resolution: '2K' }, 120_000],
    ['enhance', {}, 120_000],
    ['remix', { num_output_images: 2 }, 240_000],
  ] as const)(
    '%s answers 402 naming the ceiling, with nothing charged, when the ceiling does not fit',
    async (operation, overrides, ceilingMicros) => {
      const { response, account } = await charged(operation, overrides, ceilingMicros - 1);
      const body = await expectError(response, 402, 'INSUFFICIENT_BALANCE');
      expect(body.detail).toContain(`can cost up to ${usdText(ceilingMicros)}`);
      expect(await balanceOf(account.accountId)).toBe(ceilingMicros - 1);
      // Not even a reservation was written: the opening credit is the only ledger entry.
      expect((await services().ledger.recentEntries(account.accountId, 10)).map((entry) => entry.kind)).toEqual([
        'credit',
      ]);
    },
  );

  it('a balance exactly at the ceiling is enough', async () => {
    const { response, account } = await charged('edit', {}, 80_000);
    await expectOk(response);
    expect(await balanceOf(account.accountId)).toBe(0);
  });

  it('the ceiling counts every output image', async () => {
    const { response, account } = await charged('edit', { num_output_images: 2 }, 159_999);
    await expectError(response, 402, 'INSUFFICIENT_BALANCE');
    expect(await balanceOf(account.accountId)).toBe(159_999);
  });

  it('the ceiling includes the identity surcharge of every candidate in every output', async () => {
    const portrait = facePhoto('astronaut.jpg');
    const short = await runtime.newAccount(2 * (80_000 + SURCHARGE_MICROS) - 1);
    const shortProfile = await seedFaceProfile(short.accountId, portrait);
    const body = { prompt: 'brighter', images: [b64(portrait)], num_output_images: 2 };
    const refused = await expectError(
      await call('edit', short.apiKey, { ...body, profile_ids: [shortProfile.profileId] }),
      402,
      'INSUFFICIENT_BALANCE',
    );
    expect(refused.detail).toContain(usdText(2 * (80_000 + SURCHARGE_MICROS)));

    const account = await runtime.newAccount(2 * (80_000 + SURCHARGE_MICROS));
    const profile = await seedFaceProfile(account.accountId, portrait);
    await expectOk(await call('edit', account.apiKey, { ...body, profile_ids: [profile.profileId] }));
    expect(await balanceOf(account.accountId)).toBe(0);
  });

  it('a named profile not present in the input is no candidate: nothing of its surcharge is reserved', async () => {
    const account = await runtime.newAccount(80_000);
    const profile = await seedFaceProfile(account.accountId, facePhoto('astronaut.jpg'));
    await expectOk(await call('edit', account.apiKey, { ...validBodies().edit, profile_ids: [profile.profileId] }));
    expect(await balanceOf(account.accountId)).toBe(0);
  });
});
