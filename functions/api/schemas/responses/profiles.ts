/** Response bodies of the profile endpoints (responses/index.ts), the preflight's report among them. */
import * as v from 'valibot';
import { PROFILE_STATUSES, TRAINING_TIERS } from '../../../domain/profiles/profile';
import { PixelBoxSchema } from './common';

export const ProfileCreatedSchema = v.pipe(
  v.strictObject({ profile_id: v.string() }),
  v.title('ProfileCreated'),
  v.examples([{ profile_id: 'prf_5kq2x8' }]),
);

export const ProfileStatusSchema = v.pipe(
  v.strictObject({
    profile_id: v.string(),
    status: v.picklist(PROFILE_STATUSES),
    message: v.string(),
    progress: v.pipe(
      v.number(),
      v.minValue(0),
      v.maxValue(1),
      v.description('0 while validating, 0.1 once the photos are prepared, rising through the training, 1 once READY.'),
    ),
    eta_seconds: v.pipe(
      v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))),
      v.description(
        'Seconds of training left; null while unknown (before training starts, with a remote trainer) and for ERROR.',
      ),
    ),
    queue_position: v.optional(
      v.pipe(
        v.number(),
        v.integer(),
        v.minValue(0),
        v.description(
          'While QUEUING at a hosted trainer (Full Train with a LoRA): how many trainings are ahead of this one there. Absent otherwise.',
        ),
      ),
    ),
  }),
  v.title('ProfileStatus'),
  v.examples([
    {
      profile_id: 'prf_5kq2x8',
      status: 'IN_PROGRESS' as const,
      message: 'The model is training.',
      progress: 0.55,
      eta_seconds: 81,
    },
  ]),
);

export const ProfileListSchema = v.pipe(
  v.strictObject({
    profiles: v.array(
      v.strictObject({ profile_id: v.string(), status: v.picklist(PROFILE_STATUSES), tag: v.nullable(v.string()) }),
    ),
  }),
  v.title('ProfileList'),
);

export const ProfileDeletedSchema = v.pipe(
  v.strictObject({ profile_id: v.string(), status: v.literal('deleted') }),
  v.title('ProfileDeleted'),
);

export const TagReportSchema = v.pipe(
  v.strictObject({
    updated: v.pipe(v.number(), v.integer(), v.minValue(0)),
    already_tagged: v.array(v.string()),
    conflicts: v.array(v.strictObject({ profile_id: v.string(), existing_tag: v.string() })),
    not_found: v.array(v.string()),
  }),
  v.title('TagReport'),
  v.examples([
    {
      updated: 2,
      already_tagged: ['prf_a'],
      conflicts: [{ profile_id: 'prf_b', existing_tag: 'alice' }],
      not_found: [],
    },
  ]),
);

export const PreflightReportSchema = v.pipe(
  v.strictObject({
    training_tier: v.picklist(TRAINING_TIERS),
    accepted: v.pipe(
      v.boolean(),
      v.description('Whether profiles/add with the same body would be accepted and train.'),
    ),
    problems: v.pipe(v.array(v.string()), v.description('Why not, each a sentence; empty when accepted.')),
    usable_photos: v.pipe(
      v.number(),
      v.description('Photos the training would use: one usable face each, of the same person as the rest.'),
    ),
    needed_photos: v.pipe(v.number(), v.description('Usable photos the tier needs (fast 4, standard 8).')),
    photos: v.array(
      v.strictObject({
        index: v.number(),
        url: v.string(),
        status: v.pipe(
          v.picklist(['checked', 'not_checked']),
          v.description(
            "`not_checked`: the preflight's 25 s ran out before this photo was read (then `fetched` is false, `error`, `face` and the measures null, and the set is not `accepted`); send the preflight again: photos already checked are remembered by upload and not read again.",
          ),
        ),
        fetched: v.boolean(),
        error: v.nullable(v.string()),
        format: v.nullable(v.string()),
        width: v.nullable(v.number()),
        height: v.nullable(v.number()),
        face: v.pipe(
          v.nullable(
            v.strictObject({
              count: v.pipe(v.number(), v.description('Faces found in the photo.')),
              usable: v.pipe(
                v.boolean(),
                v.description(
                  'Exactly one face, at least 96 px, sharp, turned at most 45°, of the same person as the rest: the training would use this photo.',
                ),
              ),
              box_px: v.pipe(v.nullable(v.number()), v.description("The single face's box side in pixels.")),
              boxes: v.pipe(
                v.array(PixelBoxSchema),
                v.description(
                  "Every face found, in the photo's own pixels after EXIF rotation, largest detector score first.",
                ),
              ),
              sharpness: v.pipe(
                v.nullable(v.number()),
                v.description('Blur measured on the aligned face: higher is sharper; below 0.005 is too blurry.'),
              ),
              yaw_degrees: v.pipe(v.nullable(v.number()), v.description('Head turn: 0 frontal, ±90 profile.')),
              same_person: v.pipe(
                v.nullable(v.boolean()),
                v.description('Whether the face is the same person as the rest of the set (null: not compared).'),
              ),
              similarity: v.pipe(
                v.nullable(v.number()),
                v.description("Cosine similarity to the mean of the set's other faces."),
              ),
            }),
          ),
          v.description('What the face analysis found; null when the photo could not be read.'),
        ),
        warnings: v.array(
          v.strictObject({
            code: v.picklist([
              'too_small',
              'duplicate',
              'near_duplicate',
              'blurry',
              'greyscale',
              'extreme_aspect',
              'no_face',
              'several_faces',
              'face_too_small',
              'face_blurry',
              'face_turned_away',
              'other_person',
            ]),
            message: v.string(),
          }),
        ),
      }),
    ),
  }),
  v.title('PreflightReport'),
);
