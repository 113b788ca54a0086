/** The answer of an image operation (responses/index.ts): its outputs and who was recognised in them. */
import * as v from 'valibot';
import { PixelBoxSchema } from './common';

const RecognizedFaceSchema = v.pipe(
  v.strictObject({
    output_index: v.pipe(v.number(), v.integer(), v.minValue(0), v.description('Which output (0-based).')),
    profile_id: v.string(),
    box: v.pipe(PixelBoxSchema, v.description("The face in the output image's own pixels.")),
  }),
  v.title('RecognizedFace'),
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
        'Each recognition `known_subjects` counts (a profile at most once per output), with the face that was matched, ' +
          'for outlining it; empty when none (and for jobs finished before boxes were kept).',
      ),
    ),
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
        { output_index: 0, profile_id: 'prf_5kq2x8', box: { x: 412, y: 188, width: 236, height: 251 } },
      ],
      images: [],
      download_urls: ['https://api.example.com/v2/service/downloads/dl_…'],
    },
  ]),
);
