/**
 * Image request bodies for the black-box tests of edit, generate, enhance and remix: the smallest valid
 * body of each operation (`validBody`), and the 422 refusals they share, each a valid body wrong in one
 * field (`refusalsOf`). A test changes one aspect of a valid body.
 */

export const IMAGE_OPERATIONS = ['edit', 'generate', 'enhance', 'remix'] as const;
export type ImageOperation = (typeof IMAGE_OPERATIONS)[number];
export type RequestBody = Record<string, unknown>;

/** The images a body carries: `input` (edit's image, enhance's image, remix's input_image) and remix's `reference`. */
export interface BodyImages {
  input?: Buffer;
  reference?: Buffer;
}

/** The smallest valid body of the operation, with `overrides` changing or adding fields. */
export const validBody = (operation: ImageOperation, images: BodyImages, overrides: RequestBody = {}): RequestBody => {
  const input = () => {
    if (!images.input) throw new Error(`a valid ${operation} body needs an input image`);
    return images.input.toString('base64');
  };
  const bodies: Record<ImageOperation, () => RequestBody> = {
    edit: () => ({ prompt: 'make it brighter', images: [input()] }),
    generate: () => ({ prompt: 'a lighthouse at dusk' }),
    enhance: () => ({ image: input() }),
    remix: () => ({ input_image: input(), reference_image: (images.reference ?? images.input)?.toString('base64') }),
  };
  return { ...bodies[operation](), ...overrides };
};

/** A valid body changed by `change` is refused with a 422 whose detail has an entry at `['body', ...at]`. */
export interface Refusal {
  case: string;
  change: RequestBody;
  at: Array<string | number>;
}

/** The fields every image operation takes. */
const EVERY_OPERATION: Refusal[] = [
  { case: 'num_output_images 0', change: { num_output_images: 0 }, at: ['num_output_images'] },
  { case: 'num_output_images 5', change: { num_output_images: 5 }, at: ['num_output_images'] },
  { case: 'a fractional num_output_images', change: { num_output_images: 1.5 }, at: ['num_output_images'] },
  { case: 'a prompt over 5000 characters', change: { prompt: 'p'.repeat(5001) }, at: ['prompt'] },
  { case: 'an output_format other than png or jpg', change: { output_format: 'gif' }, at: ['output_format'] },
  { case: 'a response_mode other than bytes or urls', change: { response_mode: 'stream' }, at: ['response_mode'] },
  {
    case: 'async: true with response_mode bytes, at response_mode',
    change: { async: true, response_mode: 'bytes' },
    at: ['response_mode'],
  },
  {
    case: 'callback_url without async: true, at callback_url',
    change: { callback_url: 'https://example.com/hook' },
    at: ['callback_url'],
  },
  {
    case: 'a callback_url that is not https, at callback_url',
    change: { async: true, callback_url: 'http://example.com/hook' },
    at: ['callback_url'],
  },
  {
    case: 'a client_request_id over 128 characters',
    change: { client_request_id: 'c'.repeat(129) },
    at: ['client_request_id'],
  },
];

/** profile_ids: edit, enhance and remix (generate names profiles only as `[[id]]` in its prompt). */
const PROFILE_IDS: Refusal[] = [
  {
    case: 'more than 50 profile_ids',
    change: { profile_ids: Array.from({ length: 51 }, (_, index) => `prf_${index}`) },
    at: ['profile_ids'],
  },
  { case: 'an empty profile id, at its index', change: { profile_ids: ['prf_a', ''] }, at: ['profile_ids', 1] },
];

/** The output choices of edit and generate (enhance and remix are pinned, and refuse the fields). */
const OUTPUT_CHOICES: Refusal[] = [
  { case: 'an aspect_ratio outside the enumeration', change: { aspect_ratio: '2:1' }, at: ['aspect_ratio'] },
  { case: 'a resolution outside the enumeration', change: { resolution: '8K' }, at: ['resolution'] },
  { case: 'a quality outside the enumeration', change: { quality: 'ultra' }, at: ['quality'] },
  { case: 'a size that does not match <width>x<height>', change: { size: '1024*768' }, at: ['size'] },
];

/** The output choices enhance and remix refuse outright, each at its field. */
const PINNED_OUTPUT: Refusal[] = [
  { case: 'base_model, at that field', change: { base_model: 'base-c-2' }, at: ['base_model'] },
  { case: 'aspect_ratio, at that field', change: { aspect_ratio: '1:1' }, at: ['aspect_ratio'] },
  { case: 'resolution, at that field', change: { resolution: '2K' }, at: ['resolution'] },
];

/** The 422s the operation shares with the others, one field wrong in each. */
export const refusalsOf = (operation: ImageOperation): Refusal[] => [
  ...EVERY_OPERATION,
  ...(operation === 'generate' ? [] : PROFILE_IDS),
  ...(operation === 'edit' || operation === 'generate' ? OUTPUT_CHOICES : PINNED_OUTPUT),
];

/** How a body names profiles: in profile_ids, or as `[[id]]` in the prompt for generate, which has no profile_ids. */
export const naming = (operation: ImageOperation, profileIds: readonly string[]): RequestBody =>
  operation === 'generate'
    ? { prompt: profileIds.map((profileId) => `[[${profileId}]]`).join(' meets ') }
    : { profile_ids: [...profileIds] };
