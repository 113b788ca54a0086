/** Request shapes of the job endpoints. */
import * as v from 'valibot';
import { OPERATIONS } from '../../domain/engine/engine';
import { JOB_STATUSES } from '../../domain/jobs/job';
import { INTEGER_TEXT } from '../../entry/http/validation';

export const JOB_PAGE_DEFAULT = 20;
export const JOB_PAGE_MAX = 100;

/** A `limit` query parameter from 1 to 100 (default 20), read as FastAPI reads an `int`, so a bad one is refused in pydantic's words (validation.ts). */
export const PageLimitSchema = v.optional(
  v.pipe(
    v.string(),
    v.regex(INTEGER_TEXT, `limit must be a whole number from 1 to ${JOB_PAGE_MAX}.`),
    v.transform((text) => Number(text.trim().replaceAll('_', ''))),
    v.minValue(1, `limit must be a whole number from 1 to ${JOB_PAGE_MAX}.`),
    v.maxValue(JOB_PAGE_MAX, `limit must be a whole number from 1 to ${JOB_PAGE_MAX}.`),
  ),
  String(JOB_PAGE_DEFAULT),
);

/** A page cursor as handed out in `next_cursor`. */
export const CursorSchema = v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(512)));

export const ListJobsQuerySchema = v.object({
  status: v.optional(v.picklist(JOB_STATUSES, `status must be one of ${JOB_STATUSES.join(', ')}.`)),
  operation: v.optional(v.picklist(OPERATIONS, `operation must be one of ${OPERATIONS.join(', ')}.`)),
  created_after: v.optional(
    v.pipe(
      v.string(),
      v.isoTimestamp('created_after must be an ISO 8601 date-time, e.g. 2026-11-23T12:00:00Z.'),
      v.transform(Date.parse),
    ),
  ),
  cursor: CursorSchema,
  limit: PageLimitSchema,
});
export type ListJobsQuery = v.InferOutput<typeof ListJobsQuerySchema>;

export const JobParamsSchema = v.object({ job_id: v.pipe(v.string(), v.minLength(1), v.maxLength(64)) });

/** A download link's token is its own credential (domain/jobs/download-token.ts). */
export const DownloadParamsSchema = v.object({ token: v.pipe(v.string(), v.minLength(1)) });
