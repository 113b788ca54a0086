/**
 * The spec's "Base models, quality and size" rules 1-5, black box, through edit and generate. Each
 * refusal is a 400 INVALID_REQUEST whose detail names the offending value; each acceptance is checked on
 * the decoded output. The catalog (functions/domain/catalog/catalog.ts) decides which model is which.
 */
import { BASE_MODELS, findBaseModel } from '../../../functions/domain/catalog/catalog';
import { balanceOf, COLOURS, decode, expectError, expectOk, flatImage, operationCall, useImageWorld } from './support';

const world = useImageWorld(async () => ({
  /** 48×64 (portrait) PNG: `auto` follows it, `4:3` does not. */
  portrait: await flatImage(48, 64, 'png', COLOURS.blue),
}));

const { valid: validGenerate, send: generate } = operationCall('generate', world);
const { valid: validEdit, send: edit } = operationCall('edit', world, () => ({ input: world.portrait }));

const invalid = async (response: Response, ...mentions: string[]) => {
  const body = await expectError(response, 400, 'INVALID_REQUEST');
  for (const mention of mentions) expect(body.detail).toContain(mention);
};

const modelIds = (test: (model: (typeof BASE_MODELS)[number]) => boolean) =>
  BASE_MODELS.filter(test).map((model) => model.id);

describe('rule 1: the base model must exist and support the operation', () => {
  it.each(modelIds(() => true))('generate accepts %s', async (baseModel) => {
    const answer = await expectOk(await generate(validGenerate({ base_model: baseModel })));
    expect((await decode(answer.images[0])).format).toBe('jpeg');
  });

  it('refuses an unknown base_model with 400 naming it', async () => {
    await invalid(await generate(validGenerate({ base_model: 'base-z-9' })), 'base-z-9');
  });

  it('refuses base-e-5-pro on edit (it only generates)', async () => {
    await invalid(await edit(validEdit({ base_model: 'base-e-5-pro' })), 'base-e-5-pro');
  });

  it('edit defaults to base-c-2 (1K flat tier: 4K is accepted)', async () => {
    const answer = await expectOk(await edit(validEdit({ resolution: '4K', aspect_ratio: '16:9' })));
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width: 4096, height: 2304 });
  });
});

describe('rule 2: a resolution the model lacks is a 400', () => {
  it.each(modelIds((model) => !model.resolutions.includes('4K')))('refuses 4K on %s', async (baseModel) => {
    await invalid(await generate(validGenerate({ base_model: baseModel, resolution: '4K' })), '4K', baseModel);
  });

  it('accepts 2K on a 1K/2K model', async () => {
    const answer = await expectOk(await generate(validGenerate({ base_model: 'base-d-2', resolution: '2K' })));
    // base-d-2 has no auto: 4:3 at 2K.
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width: 2048, height: 1536 });
  });
});

describe('rule 3: quality only on the base-b models, xhigh and max only on the 2.5 variants', () => {
  it.each(modelIds((model) => model.qualities.length === 0))('refuses quality on %s', async (baseModel) => {
    await invalid(await generate(validGenerate({ base_model: baseModel, quality: 'high' })), 'quality', baseModel);
  });

  it.each(['xhigh', 'max'])('refuses %s on base-b-2', async (quality) => {
    await invalid(await generate(validGenerate({ base_model: 'base-b-2', quality })), quality, 'base-b-2');
  });

  it.each([
    ['base-b-2', 'auto'],
    ['base-b-2', 'low'],
    ['base-b-2', 'high'],
    ['base-b-2.5-flare', 'xhigh'],
    ['base-b-2.5-sunburst', 'max'],
  ])('accepts %s with quality %s', async (baseModel, quality) => {
    const answer = await expectOk(await generate(validGenerate({ base_model: baseModel, quality })));
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width: 1024, height: 1024 });
  });

  it('a lower quality tier costs less on a token-metered model', async () => {
    const low = await world.runtime.newAccount(1_000_000);
    const high = await world.runtime.newAccount(1_000_000);
    await expectOk(await generate(validGenerate({ base_model: 'base-b-2', quality: 'low' }), low.apiKey));
    await expectOk(await generate(validGenerate({ base_model: 'base-b-2', quality: 'high' }), high.apiKey));
    const spentLow = 1_000_000 - (await balanceOf(low.accountId));
    const spentHigh = 1_000_000 - (await balanceOf(high.accountId));
    const pricing = findBaseModel('base-b-2')!.pricing;
    expect(pricing.metering).toBe('tokens');
    expect(spentLow).toBeGreaterThanOrEqual(pricing.metering === 'tokens' ? pricing.floorPerImageMicros : Infinity);
    expect(spentLow).toBeLessThan(spentHigh);
  });
});

describe('rule 4: aspect_ratio defaults to auto where offered, 4:3 otherwise', () => {
  it.each([
    ['base-c-2 follows a portrait input by default (auto)', {}, 768, 1024],
    ['base-a-2 defaults to 4:3 whatever the input: 1024x768', { base_model: 'base-a-2' }, 1024, 768],
    ['an explicit aspect_ratio wins over the input on a model with auto', { aspect_ratio: '1:1' }, 1024, 1024],
  ])('%s', async (_rule, overrides, width, height) => {
    const answer = await expectOk(await edit(validEdit(overrides)));
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width, height });
  });

  it.each(modelIds((model) => !model.autoAspectRatio))('refuses auto on %s', async (baseModel) => {
    await invalid(await generate(validGenerate({ base_model: baseModel, aspect_ratio: 'auto' })), 'auto', baseModel);
  });
});

describe('rule 5: size', () => {
  const sized = (size: string, overrides: Record<string, unknown> = {}) =>
    validGenerate({ base_model: 'base-b-2', size, ...overrides });

  it.each([
    ['gives exactly the size asked', '1280x720', {}],
    ['accepts an aspect ratio of exactly 3:1', '2688x896', {}],
    ['accepts exactly 655360 pixels', '1024x640', {}],
    ['accepts exactly 3686400 pixels', '2560x1440', {}],
    ['accepts size with the default resolution 1K stated', '1280x720', { resolution: '1K' }],
  ])('%s', async (_rule, size, overrides) => {
    const answer = await expectOk(await generate(sized(size, overrides)));
    const [width, height] = size.split('x').map(Number);
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width, height });
  });

  it('gives exactly the size asked on edit too, whatever the input', async () => {
    const answer = await expectOk(await edit(validEdit({ base_model: 'base-b-2', size: '1280x720' })));
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width: 1280, height: 720 });
  });

  it.each([
    ['refuses an edge that is not a multiple of 16', '1000x800', {}, ['1000x800', 'multiple of 16']],
    ['refuses an edge over 3840', '3856x1296', {}, ['3856x1296', '3840']],
    ['refuses an aspect ratio over 3:1', '2560x832', {}, ['2560x832', '3:1']],
    ['refuses fewer than 655360 pixels', '800x800', {}, ['800x800', '655360']],
    ['refuses more than 3686400 pixels', '2048x1824', {}, ['2048x1824', '3686400']],
    ['refuses size with a non-default resolution', '1280x720', { resolution: '2K' }, ['resolution']],
    ['refuses size with aspect_ratio', '1280x720', { aspect_ratio: '16:9' }, ['aspect_ratio']],
  ])('%s', async (_rule, size, overrides, mentions) => {
    await invalid(await generate(sized(size, overrides)), ...mentions);
  });

  it.each(modelIds((model) => !model.exactSize))('refuses size on %s', async (baseModel) => {
    await invalid(await generate(sized('1280x720', { base_model: baseModel })), baseModel);
  });

  it.each(modelIds((model) => model.exactSize))('accepts size on %s', async (baseModel) => {
    const answer = await expectOk(await generate(sized('1024x1024', { base_model: baseModel })));
    expect(await decode(answer.images[0])).toEqual({ format: 'jpeg', width: 1024, height: 1024 });
  });
});

describe('a refused request charges nothing', () => {
  it('leaves the balance unchanged after a base-model 400', async () => {
    const account = await world.runtime.newAccount(1_000_000);
    await invalid(await generate(validGenerate({ base_model: 'base-a-2', resolution: '4K' }), account.apiKey));
    expect(await balanceOf(account.accountId)).toBe(1_000_000);
  });
});
