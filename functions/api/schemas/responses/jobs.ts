/** Response bodies of the job endpoints (responses/index.ts): the handle of a new job, its status, a page of jobs. */
import * as v from 'valibot';
import { OPERATIONS } from '../../../domain/engine/engine';
import { API_ERROR_CODES } from '../../../domain/errors';
import { JOB_STATUSES } from '../../../domain/jobs/job';
import { IsoDateTime, UsdDecimal } from './common';
import { ImageResultSchema } from './images';

export const JobHandleSchema = v.pipe(
  v.strictObject({
    job_id: v.string(),
    status: v.literal('pending'),
    poll_url: v.pipe(v.string(), v.description('Path of this job’s status endpoint.')),
  }),
  v.title('JobHandle'),
  v.examples([{ job_id: 'job_2b7f1c', status: 'pending' as const, poll_url: '/v2/service/jobs/job_2b7f1c' }]),
);

export const JobStatusSchema = v.pipe(
  v.strictObject({
    job_id: v.string(),
    status: v.picklist(JOB_STATUSES),
    operation: v.picklist(OPERATIONS),
    created_at: IsoDateTime,
    result: v.pipe(
      v.nullable(ImageResultSchema),
      v.description('Set once `succeeded`: `download_urls` filled, `images` empty.'),
    ),
    error: v.pipe(
      v.nullable(v.strictObject({ code: v.picklist(API_ERROR_CODES), message: v.string() })),
      v.description('Set once `failed`.'),
    ),
    completed_at: v.nullable(IsoDateTime),
    progress: v.pipe(
      v.number(),
      v.minValue(0),
      v.maxValue(1),
      v.description(
        '0 while pending, the engine’s last report while running (written at most every 2 s), 1 once succeeded.',
      ),
    ),
    eta_seconds: v.pipe(
      v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))),
      v.description('Seconds left at the pace so far; null while unknown, and for a failed job.'),
    ),
    cost: v.pipe(
      v.nullable(
        v.strictObject({
          reserved: v.pipe(UsdDecimal, v.description('Reserved from the balance at submit (the floor price).')),
          final: v.pipe(
            v.nullable(UsdDecimal),
            v.description('Once ended: the price settled, or `0.00` when the reservation was refunded; null before.'),
          ),
        }),
      ),
      v.description('The job’s money in USD; null only for a job recorded before costs were kept.'),
    ),
  }),
  v.title('JobStatus'),
  v.examples([
    {
      job_id: 'job_2b7f1c',
      status: 'succeeded' as const,
      operation: 'generate' as const,
      created_at: '2026-11-23T12:00:00.000Z',
      result: {
        known_subjects: { counts: {} },
        recognized_faces: [],
        images: [],
        download_urls: ['https://api.example.com/v2/service/downloads/dl_…'],
      },
      error: null,
      completed_at: '2026-11-23T12:00:09.000Z',
      progress: 1,
      eta_seconds: 0,
      cost: { reserved: '0.04', final: '0.04' },
    },
  ]),
);

export const JobPageSchema = v.pipe(
  v.strictObject({
    jobs: v.array(JobStatusSchema),
    next_cursor: v.pipe(
      v.nullable(v.string()),
      v.description('Pass as `cursor` for the next page; null on the last page.'),
    ),
  }),
  v.title('JobPage'),
);
