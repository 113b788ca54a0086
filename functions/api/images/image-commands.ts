/** From the four request bodies (snake_case, the spec's names) to the domain's one ImageCommand. */
import type { ImageCommand, OutputChoice } from '../../domain/images/command';
import type { EditRequest, EnhanceRequest, GenerateRequest, RemixRequest } from '../schemas/images';

type Common = Pick<
  EditRequest,
  | 'num_output_images'
  | 'output_format'
  | 'response_mode'
  | 'async'
  | 'callback_url'
  | 'client_request_id'
  | 'cancel_after'
  | 'identity_check'
>;

const common = (body: Common) => ({
  numOutputImages: body.num_output_images,
  outputFormat: body.output_format,
  responseMode: body.response_mode,
  async: body.async,
  callbackUrl: body.callback_url,
  clientRequestId: body.client_request_id,
  cancelAfterSeconds: body.cancel_after,
  identityCheck: body.identity_check,
});

const outputChoice = (
  body: Pick<EditRequest, 'base_model' | 'resolution' | 'aspect_ratio' | 'quality' | 'size'>,
): OutputChoice => ({
  baseModel: body.base_model,
  resolution: body.resolution,
  aspectRatio: body.aspect_ratio,
  quality: body.quality,
  size: body.size,
});

export const editCommand = (body: EditRequest): ImageCommand => ({
  operation: 'edit',
  prompt: body.prompt,
  inputs: body.images.map((value, index) => ({ label: `images[${index}]`, value })),
  profileIds: body.profile_ids ?? [],
  output: outputChoice(body),
  ...common(body),
});

export const generateCommand = (body: GenerateRequest): ImageCommand => ({
  operation: 'generate',
  prompt: body.prompt,
  inputs: [],
  profileIds: [],
  output: outputChoice(body),
  ...common(body),
});

export const enhanceCommand = (body: EnhanceRequest): ImageCommand => ({
  operation: 'enhance',
  prompt: body.prompt,
  inputs: [{ label: 'image', value: body.image }],
  profileIds: body.profile_ids ?? [],
  output: 'pinned',
  ...common(body),
});

export const remixCommand = (body: RemixRequest): ImageCommand => ({
  operation: 'remix',
  prompt: body.prompt,
  inputs: [
    { label: 'input_image', value: body.input_image },
    { label: 'reference_image', value: body.reference_image },
  ],
  profileIds: body.profile_ids ?? [],
  output: 'pinned',
  ...common(body),
});
