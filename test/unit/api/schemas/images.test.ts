import * as v from 'valibot';
import {
  EditRequestSchema,
  EnhanceRequestSchema,
  GenerateRequestSchema,
  RemixRequestSchema,
} from '../../../../functions/api/schemas/images';

/** Issues as the 422 formatter sees them: the field path and the message. */
const issuesOf = (schema: v.GenericSchema, input: unknown) => {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  return result.success
    ? []
    : result.issues.map((issue) => ({ path: (issue.path ?? []).map((item) => item.key), message: issue.message }));
};
const pathsOf = (schema: v.GenericSchema, input: unknown) => issuesOf(schema, input).map((issue) => issue.path);

const edit = { images: ['https://example.com/a.jpg'], prompt: 'make it blue', profile_ids: ['prf_a'] };
const generate = { prompt: 'a red bicycle' };
const enhance = { image: 'https://example.com/a.jpg' };
const remix = { input_image: 'https://example.com/a.jpg', reference_image: 'https://example.com/b.jpg' };

describe('common fields', () => {
  it('fills the defaults of a minimal request', () => {
    expect(v.parse(EditRequestSchema, { images: ['aGVsbG8='] })).toEqual({
      images: ['aGVsbG8='],
      prompt: '',
      async: false,
      response_mode: 'bytes',
      num_output_images: 1,
      identity_check: 'report',
    });
  });

  it('defaults response_mode to urls for async requests', () => {
    expect(v.parse(EditRequestSchema, { ...edit, async: true }).response_mode).toBe('urls');
  });

  it('refuses async with response_mode bytes at response_mode', () => {
    expect(issuesOf(EditRequestSchema, { ...edit, async: true, response_mode: 'bytes' })).toEqual([
      { path: ['response_mode'], message: expect.stringMatching(/bytes cannot be combined with async/) },
    ]);
  });

  it('refuses callback_url without async at callback_url', () => {
    expect(issuesOf(EditRequestSchema, { ...edit, callback_url: 'https://example.com/hook' })).toEqual([
      { path: ['callback_url'], message: 'callback_url is only valid with async: true.' },
    ]);
  });

  it('accepts callback_url with async', () => {
    expect(pathsOf(EditRequestSchema, { ...edit, async: true, callback_url: 'https://example.com/hook' })).toEqual([]);
  });

  it('refuses a callback_url that is not https', () => {
    expect(pathsOf(EditRequestSchema, { ...edit, async: true, callback_url: 'http://example.com/hook' })).toEqual([
      ['callback_url'],
    ]);
    expect(pathsOf(EditRequestSchema, { ...edit, async: true, callback_url: 'not a url' })).toEqual([['callback_url']]);
  });

  it('takes 1 to 4 output images', () => {
    for (const bad of [0, 5, 1.5, '2'])
      expect(pathsOf(EditRequestSchema, { ...edit, num_output_images: bad })).toEqual([['num_output_images']]);
    expect(v.parse(EditRequestSchema, { ...edit, num_output_images: 4 }).num_output_images).toBe(4);
  });

  it('takes a client_request_id of 1 to 128 characters', () => {
    expect(pathsOf(EditRequestSchema, { ...edit, client_request_id: '' })).toEqual([['client_request_id']]);
    expect(pathsOf(EditRequestSchema, { ...edit, client_request_id: 'x'.repeat(129) })).toEqual([
      ['client_request_id'],
    ]);
  });

  it('takes output_format png or jpg only', () => {
    expect(pathsOf(EditRequestSchema, { ...edit, output_format: 'webp' })).toEqual([['output_format']]);
  });

  it('ignores unknown fields', () => {
    expect(v.parse(EditRequestSchema, { ...edit, colour: 'blue' })).not.toHaveProperty('colour');
  });
});

describe('edit', () => {
  it('requires images', () => {
    const { images: _images, ...withoutImages } = edit;
    expect(pathsOf(EditRequestSchema, withoutImages)).toEqual([['images']]);
  });

  it('takes 1 to 10 images', () => {
    expect(pathsOf(EditRequestSchema, { ...edit, images: [] })).toEqual([['images']]);
    expect(pathsOf(EditRequestSchema, { ...edit, images: Array(11).fill('aGVsbG8=') })).toEqual([['images']]);
  });

  it('locates an empty image at its index', () => {
    expect(pathsOf(EditRequestSchema, { ...edit, images: ['a', 'b', 'c', ''] })).toEqual([['images', 3]]);
  });

  it('takes a prompt of at most 5000 characters', () => {
    expect(pathsOf(EditRequestSchema, { ...edit, prompt: 'x'.repeat(5001) })).toEqual([['prompt']]);
  });

  it('takes at most 50 non-empty profile ids', () => {
    expect(
      pathsOf(EditRequestSchema, { ...edit, profile_ids: Array.from({ length: 51 }, (_, i) => `prf_${i}`) }),
    ).toEqual([['profile_ids']]);
    expect(pathsOf(EditRequestSchema, { ...edit, profile_ids: ['prf_a', ''] })).toEqual([['profile_ids', 1]]);
  });

  it('takes the listed aspect ratios only', () => {
    expect(pathsOf(EditRequestSchema, { ...edit, aspect_ratio: '2:1' })).toEqual([['aspect_ratio']]);
  });

  it('takes resolution 1K, 2K or 4K only', () => {
    expect(pathsOf(EditRequestSchema, { ...edit, resolution: '8K' })).toEqual([['resolution']]);
  });

  it('takes the listed quality tiers only', () => {
    expect(pathsOf(EditRequestSchema, { ...edit, quality: 'ultra' })).toEqual([['quality']]);
  });

  it('takes a size matching <width>x<height>', () => {
    expect(pathsOf(EditRequestSchema, { ...edit, size: '01024x768' })).toEqual([['size']]);
    expect(pathsOf(EditRequestSchema, { ...edit, size: '10240x768' })).toEqual([['size']]);
  });

  it('leaves an unknown base_model to the domain (400, not 422)', () => {
    expect(pathsOf(EditRequestSchema, { ...edit, base_model: 'base-z-9' })).toEqual([]);
  });
});

describe('generate', () => {
  it('accepts a prompt alone', () => {
    expect(v.parse(GenerateRequestSchema, generate)).toMatchObject({ prompt: 'a red bicycle', response_mode: 'bytes' });
  });

  it('requires a prompt', () => {
    expect(pathsOf(GenerateRequestSchema, {})).toEqual([['prompt']]);
  });

  it('refuses a blank prompt', () => {
    expect(pathsOf(GenerateRequestSchema, { prompt: '  ' })).toEqual([['prompt']]);
  });

  it('ignores images and profile_ids', () => {
    const parsed = v.parse(GenerateRequestSchema, { ...generate, images: ['a'], profile_ids: ['prf_a'] });
    expect(parsed).not.toHaveProperty('images');
    expect(parsed).not.toHaveProperty('profile_ids');
  });
});

describe('enhance', () => {
  it('accepts an image alone', () => {
    expect(v.parse(EnhanceRequestSchema, enhance)).toMatchObject({ image: enhance.image, prompt: '' });
  });

  it('requires image', () => {
    expect(pathsOf(EnhanceRequestSchema, {})).toEqual([['image']]);
  });

  it.each(['base_model', 'aspect_ratio', 'resolution'])('refuses %s at that field', (field) => {
    expect(issuesOf(EnhanceRequestSchema, { ...enhance, [field]: '2K' })).toEqual([
      { path: [field], message: `enhance does not accept ${field}: it is pinned to base-c-2 at 2K.` },
    ]);
  });
});

describe('remix', () => {
  it('accepts an input and a reference image', () => {
    expect(v.parse(RemixRequestSchema, { ...remix, profile_ids: ['prf_a'] })).toMatchObject({
      ...remix,
      profile_ids: ['prf_a'],
    });
  });

  it('requires input_image', () => {
    expect(pathsOf(RemixRequestSchema, { reference_image: remix.reference_image })).toEqual([['input_image']]);
  });

  it('requires reference_image', () => {
    expect(pathsOf(RemixRequestSchema, { input_image: remix.input_image })).toEqual([['reference_image']]);
  });

  it.each(['base_model', 'aspect_ratio', 'resolution'])('refuses %s at that field', (field) => {
    expect(issuesOf(RemixRequestSchema, { ...remix, [field]: 'base-c-2' })).toEqual([
      { path: [field], message: `remix does not accept ${field}: it is pinned to base-c-2 at 2K.` },
    ]);
  });
});
