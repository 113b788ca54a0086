import { type OutputParams, pinnedTwoK, resolveOutputSpec } from '../../../../functions/domain/catalog/output-spec';
import { InvalidRequestError } from '../../../../functions/domain/errors';

/** A valid exact-size request on a model that takes every field; tests change one aspect. */
const sized: OutputParams = { baseModel: 'base-b-2', quality: 'high', size: '1536x1024' };

const rejects = (operation: 'edit' | 'generate', params: OutputParams, message: RegExp) => {
  const run = () => resolveOutputSpec(operation, params);
  expect(run).toThrow(InvalidRequestError);
  expect(run).toThrow(message);
};

describe('resolveOutputSpec', () => {
  it('defaults to base-c-2, 1K and auto, square without an input', () => {
    expect(resolveOutputSpec('generate', {})).toEqual({
      baseModel: 'base-c-2',
      resolution: '1K',
      aspectRatio: 'auto',
      width: 1024,
      height: 1024,
      sizeGiven: false,
    });
  });

  it('follows the first input aspect ratio for auto', () => {
    expect(resolveOutputSpec('edit', { resolution: '2K', inputAspect: 1.5 })).toMatchObject({
      width: 2048,
      height: 1360,
    });
    expect(resolveOutputSpec('edit', { inputAspect: 0.5 })).toMatchObject({ width: 512, height: 1024 });
  });

  it('gives each tier its long edge and rounds the short edge to 16 px', () => {
    expect(resolveOutputSpec('edit', { aspectRatio: '4:3' })).toMatchObject({ width: 1024, height: 768 });
    expect(resolveOutputSpec('edit', { aspectRatio: '16:9', resolution: '2K' })).toMatchObject({
      width: 2048,
      height: 1152,
    });
    expect(resolveOutputSpec('edit', { aspectRatio: '9:16', resolution: '4K' })).toMatchObject({
      width: 2304,
      height: 4096,
    });
    expect(resolveOutputSpec('edit', { aspectRatio: '16:9' })).toMatchObject({ width: 1024, height: 576 });
  });

  it('defaults models without auto to 4:3', () => {
    expect(resolveOutputSpec('edit', { baseModel: 'base-a-2' })).toMatchObject({
      aspectRatio: '4:3',
      width: 1024,
      height: 768,
    });
  });

  it.each<[string, 'edit' | 'generate', OutputParams, RegExp]>([
    ['rejects an unknown base_model', 'edit', { baseModel: 'base-z-9' }, /Unknown base_model 'base-z-9'/],
    [
      'rejects a resolution the model lacks',
      'generate',
      { baseModel: 'base-a-2-pro', resolution: '4K' },
      /resolution '4K' is not supported by base_model 'base-a-2-pro'/,
    ],
    [
      'rejects quality on a model without it, even auto',
      'edit',
      { quality: 'auto' },
      /quality is accepted only by base-b-2, base-b-2.5-flare, base-b-2.5-sunburst/,
    ],
    [
      'rejects auto aspect ratio where unsupported',
      'generate',
      { baseModel: 'base-d-2', aspectRatio: 'auto' },
      /aspect_ratio 'auto' is not supported by base_model 'base-d-2'/,
    ],
    [
      'names the first offending field',
      'edit',
      { baseModel: 'base-a-2', resolution: '4K', quality: 'high', aspectRatio: 'auto' },
      /^resolution/,
    ],
  ])('%s', (_rule, operation, params, message) => rejects(operation, params, message));

  it('rejects edit with a generate-only model', () => {
    rejects('edit', { baseModel: 'base-e-5-pro' }, /'base-e-5-pro' does not support edit/);
    expect(resolveOutputSpec('generate', { baseModel: 'base-e-5-pro' }).baseModel).toBe('base-e-5-pro');
  });

  it('rejects xhigh and max on base-b-2', () => {
    rejects(
      'edit',
      { baseModel: 'base-b-2', quality: 'xhigh' },
      /quality 'xhigh' is available only on base-b-2.5-flare/,
    );
    rejects('edit', { baseModel: 'base-b-2', quality: 'max' }, /quality 'max'/);
  });

  it('accepts xhigh on a 2.5 variant', () => {
    expect(resolveOutputSpec('edit', { baseModel: 'base-b-2.5-sunburst', quality: 'xhigh' }).quality).toBe('xhigh');
  });

  it('lets the provider choose quality when omitted', () => {
    expect(resolveOutputSpec('edit', { baseModel: 'base-b-2' }).quality).toBe('auto');
  });

  describe('size', () => {
    it('sets the exact output size at the 1K tier', () => {
      expect(resolveOutputSpec('edit', sized)).toEqual({
        baseModel: 'base-b-2',
        resolution: '1K',
        aspectRatio: null,
        quality: 'high',
        width: 1536,
        height: 1024,
        sizeGiven: true,
      });
    });

    it('is refused by models other than the base-b family', () => {
      rejects('edit', { size: '1536x1024' }, /accepted only by base-b-2, .* not by base_model 'base-c-2'/);
    });

    it('combines with resolution 1K but not 2K', () => {
      expect(resolveOutputSpec('edit', { ...sized, resolution: '1K' }).sizeGiven).toBe(true);
      rejects('edit', { ...sized, resolution: '2K' }, /cannot be combined with resolution '2K'/);
    });

    it('cannot be combined with aspect_ratio', () => {
      rejects('edit', { ...sized, aspectRatio: '1:1' }, /cannot be combined with aspect_ratio '1:1'/);
    });

    it('needs edges that are multiples of 16', () => {
      rejects('edit', { ...sized, size: '1000x1024' }, /multiple of 16/);
    });

    it('needs edges of at most 3840 px', () => {
      rejects('edit', { ...sized, size: '3856x1296' }, /at most 3840 px/);
    });

    it('needs an aspect ratio of at most 3:1', () => {
      rejects('edit', { ...sized, size: '2048x672' }, /at most 3:1/);
      expect(resolveOutputSpec('edit', { ...sized, size: '1920x640' }).width).toBe(1920);
    });

    it('needs at least 655360 pixels', () => {
      rejects('edit', { ...sized, size: '800x800' }, /from 655360 to 3686400 pixels \(it is 640000\)/);
      expect(resolveOutputSpec('edit', { ...sized, size: '1024x640' }).height).toBe(640);
    });

    it('needs at most 3686400 pixels', () => {
      rejects('edit', { ...sized, size: '2000x2000' }, /from 655360 to 3686400 pixels/);
      expect(resolveOutputSpec('edit', { ...sized, size: '2560x1440' }).width).toBe(2560);
    });

    it('must look like <width>x<height>', () => {
      rejects('edit', { ...sized, size: '1024*1024' }, /<width>x<height>/);
    });
  });
});

describe('pinnedTwoK', () => {
  it('keeps the input aspect ratio at a 2048 px long edge', () => {
    expect(pinnedTwoK(4000, 3000)).toEqual({ width: 2048, height: 1536 });
    expect(pinnedTwoK(3000, 4000)).toEqual({ width: 1536, height: 2048 });
    expect(pinnedTwoK(512, 512)).toEqual({ width: 2048, height: 2048 });
  });

  it('rounds the short edge to a multiple of 16, at least 16', () => {
    expect(pinnedTwoK(1920, 1080)).toEqual({ width: 2048, height: 1152 });
    expect(pinnedTwoK(10_000, 10)).toEqual({ width: 2048, height: 16 });
  });
});
