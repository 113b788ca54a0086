/** The answer of an image operation (responses/index.ts): its outputs and who was recognised in them. */
import * as v from 'valibot';
import { CARRIED_BY } from '../../../domain/engine/identity';
import { PixelBoxSchema } from './common';

const RecognizedFaceSchema = v.pipe(
  v.strictObject({
    output_index: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Which output (0-based).')),
    profile_id: v.string(),
    box: v.pipe(PixelBoxSchema, v.description("The face in the output image's own pixels.")),
    similarity: v.optional(
      v.pipe(
        v.number(),
        v.minValue(-1),
        v.maxValue(1),
        v.description(
          "Cosine of the face to the profile's template, 3 decimals; a face counts from 0.70 (absent for jobs finished before it was kept).",
        ),
      ),
    ),
    billed: v.pipe(
      v.boolean(),
      v.description(
        "Whether this recognition counts in `known_subjects` and the price: a person's does; an animal's is reported but not billed.",
      ),
    ),
  }),
  v.title('RecognizedFace'),
);

const OutputIdentitySchema = v.pipe(
  v.strictObject({
    output_index: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Which output (0-based).')),
    kept: v.pipe(v.array(v.string()), v.description('Expected subjects recognised in this output.')),
    missing: v.pipe(v.array(v.string()), v.description('Expected subjects not recognised in this output.')),
    attempts: v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.description('How many times this output was made: more than 1 only with `identity_check: retry`.'),
    ),
    carried_by: v.optional(
      v.pipe(
        v.record(v.string(), v.picklist(CARRIED_BY)),
        v.description(
          'profile_id → how each expected subject was given to the model for this output: `lora`, by the LoRA its Full Train ' +
            'trained (only `base-a-2`, for at most one subject of a request: docs/identity.md), or `references`, by reference ' +
            'images of its face. Absent when nobody is expected, and on results made before it was reported.',
        ),
      ),
    ),
  }),
  v.title('OutputIdentity'),
);

const IdentitySchema = v.pipe(
  v.strictObject({
    expected: v.pipe(
      v.array(v.string()),
      v.description(
        'The subjects this request expected, in request order: named as [[id]] in the prompt, or listed in profile_ids and recognised in the input.',
      ),
    ),
    outputs: v.pipe(v.array(OutputIdentitySchema), v.description('One entry per output.')),
    retried_outputs: v.pipe(
      v.number(),
      v.integer(),
      v.minValue(0),
      v.description(
        'Outputs made again by `identity_check: retry` (the sum of each output’s attempts beyond the first), each charged at the ' +
          'operation’s per-output price; 0 without a retry.',
      ),
    ),
    not_checked: v.optional(
      v.pipe(
        v.array(v.string()),
        v.description(
          'Expected subjects whose face template of the current face model was not ready in time: their references were sent, ' +
            'but they were not recognised and are not billed (nor listed as missing). Absent when every subject was checked.',
        ),
      ),
    ),
  }),
  v.title('Identity'),
  v.description('How identity was kept, output by output; absent with `identity_check: off`.'),
);

export const ImageResultSchema = v.pipe(
  v.strictObject({
    known_subjects: v.strictObject({
      counts: v.pipe(
        v.record(v.string(), v.pipe(v.number(), v.integer(), v.minValue(1))),
        v.description('profile_id → how many times that subject appears, summed over all outputs (used for billing).'),
      ),
    }),
    recognized_faces: v.pipe(
      v.array(RecognizedFaceSchema),
      v.description(
        'Each recognition (a profile at most once per output), with the face that was matched, its similarity and whether it bills, ' +
          'for outlining it; `known_subjects` counts the billed ones. Empty when none (and for jobs finished before boxes were kept).',
      ),
    ),
    identity: v.optional(IdentitySchema),
    images: v.pipe(v.array(v.string()), v.description('Base64 images (`response_mode: bytes`), else empty.')),
    download_urls: v.pipe(
      v.array(v.pipe(v.string(), v.url())),
      v.description('Links valid 24 h (`response_mode: urls`), else empty.'),
    ),
  }),
  v.title('ImageResult'),
  v.examples([
    {
      known_subjects: { counts: { prf_5kq2x8: 1 } },
      recognized_faces: [
        {
          output_index: 0,
          profile_id: 'prf_5kq2x8',
          box: { x: 412, y: 188, width: 236, height: 251 },
          similarity: 0.842,
          billed: true,
        },
      ],
      identity: {
        expected: ['prf_5kq2x8'],
        outputs: [{ output_index: 0, kept: ['prf_5kq2x8'], missing: [], attempts: 1 }],
        retried_outputs: 0,
      },
      images: [],
      download_urls: ['https://api.example.com/v2/service/downloads/dl_…'],
    },
  ]),
);
