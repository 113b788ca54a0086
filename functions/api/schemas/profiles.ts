/** Request shapes of the profile endpoints: the request types, the 422 validation, and the docs. */
import * as v from 'valibot';
import { PHOTO_COUNT_BY_TIER, TRAINING_TIERS } from '../../domain/profiles/profile';
import { MODEL_VERSIONS } from '../../domain/shared/model-version';
import { CallbackUrlSchema } from './callbacks';

const Tag = v.pipe(
  v.string(),
  v.minLength(1, 'A tag must be 1 to 128 characters.'),
  v.maxLength(128, 'A tag must be 1 to 128 characters.'),
);

const PhotoUrl = v.pipe(
  v.string(),
  v.url('Each image URL must be an absolute http(s) URL.'),
  v.regex(/^https?:\/\//i, 'Each image URL must be an absolute http(s) URL.'),
);

export const AddProfileRequestSchema = v.pipe(
  v.object({
    image_urls: v.pipe(
      v.array(PhotoUrl),
      v.minLength(5, 'image_urls needs 5 to 50 photos.'),
      v.maxLength(50, 'image_urls needs 5 to 50 photos.'),
    ),
    training_tier: v.optional(v.picklist(TRAINING_TIERS), 'standard'),
    tag: v.optional(Tag),
    model_version: v.optional(v.picklist(MODEL_VERSIONS)),
    callback_url: v.optional(
      v.pipe(
        CallbackUrlSchema,
        v.description(
          'Gets a signed POST of the profile status body when training ends (READY or ERROR), like a job callback.',
        ),
      ),
    ),
  }),
  v.forward(
    v.check((body) => {
      const range = PHOTO_COUNT_BY_TIER[body.training_tier];
      return body.image_urls.length >= range.min && body.image_urls.length <= range.max;
    }, 'The photo count is outside the tier range: standard takes 10 to 50 photos, fast 5 to 10.'),
    ['image_urls'],
  ),
);
export type AddProfileRequest = v.InferOutput<typeof AddProfileRequestSchema>;

/** The preflight takes any count (it says whether the tier would take it) and the same photo URLs. */
export const PreflightRequestSchema = v.object({
  image_urls: v.pipe(
    v.array(PhotoUrl),
    v.minLength(1, 'image_urls needs 1 to 50 photos.'),
    v.maxLength(50, 'image_urls needs 1 to 50 photos.'),
  ),
  training_tier: v.optional(v.picklist(TRAINING_TIERS), 'standard'),
});
export type PreflightRequest = v.InferOutput<typeof PreflightRequestSchema>;

export const ListProfilesQuerySchema = v.object({ tag: v.optional(Tag) });

export const ProfileParamsSchema = v.object({ profile_id: v.pipe(v.string(), v.minLength(1), v.maxLength(128)) });

export const TagProfilesRequestSchema = v.object({
  tags: v.pipe(
    v.array(v.object({ profile_id: v.pipe(v.string(), v.minLength(1, 'A profile id must not be empty.')), tag: Tag })),
    v.minLength(1, 'tags needs 1 to 1000 entries.'),
    v.maxLength(1000, 'tags needs 1 to 1000 entries.'),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const seen = new Set<string>();
      dataset.value.forEach((entry, index) => {
        if (seen.has(entry.profile_id)) {
          addIssue({
            message: `Profile ${entry.profile_id} appears more than once; each profile may be tagged once per request.`,
            path: [
              { type: 'array', origin: 'value', input: dataset.value, key: index, value: entry },
              { type: 'object', origin: 'value', input: entry, key: 'profile_id', value: entry.profile_id },
            ],
          });
        }
        seen.add(entry.profile_id);
      });
    }),
  ),
});
export type TagProfilesRequest = v.InferOutput<typeof TagProfilesRequestSchema>;
