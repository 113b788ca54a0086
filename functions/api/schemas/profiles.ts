/** Request shapes of the profile endpoints: the request types, the 422 validation, and the docs. */
import * as v from 'valibot';
import { UPLOAD_REFERENCE, UPLOAD_REFERENCE_PREFIX } from '../../domain/images/uploads';
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

const UploadReference = v.pipe(
  v.string(),
  v.regex(UPLOAD_REFERENCE, 'An upload reference is `upload:<upload_id>`, the `reference` POST /uploads answered.'),
);

/**
 * A photo is an http(s) URL or the caller's direct upload (`upload:<upload_id>`), told apart by the
 * prefix so that each form keeps its own 422 (a URL's stay pydantic's `url_*` ones; a union would
 * answer one vague error for both). Given no input, the getter answers both forms: that is what the
 * OpenAPI document shows (openapi/document.ts).
 */
const PhotoSource = v.lazy((input) => {
  if (input === undefined) return v.union([PhotoUrl, UploadReference]);
  return typeof input === 'string' && input.startsWith(UPLOAD_REFERENCE_PREFIX) ? UploadReference : PhotoUrl;
});

const PHOTO_SOURCES_DESCRIPTION =
  'Each an http(s) URL the service fetches, or `upload:<upload_id>`: the caller’s own direct upload (POST /uploads), PUT before this call and used within 24 h of arriving. JPEG, PNG, WebP or HEIC/HEIF.';

export const AddProfileRequestSchema = v.pipe(
  v.object({
    image_urls: v.pipe(
      v.array(PhotoSource),
      v.minLength(5, 'image_urls needs 5 to 50 photos.'),
      v.maxLength(50, 'image_urls needs 5 to 50 photos.'),
      v.description(PHOTO_SOURCES_DESCRIPTION),
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

/** The preflight takes any count (it says whether the tier would take it) and the same photo sources. */
export const PreflightRequestSchema = v.object({
  image_urls: v.pipe(
    v.array(PhotoSource),
    v.minLength(1, 'image_urls needs 1 to 50 photos.'),
    v.maxLength(50, 'image_urls needs 1 to 50 photos.'),
    v.description(PHOTO_SOURCES_DESCRIPTION),
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
