/** The bodies of a refusal: the service's own error body, and the 422 in pydantic's shape (responses/index.ts). */
import * as v from 'valibot';
import { API_ERROR_CODES } from '../../../domain/errors';

export const ErrorBodySchema = v.pipe(
  v.strictObject({
    detail: v.pipe(v.string(), v.description('What went wrong, safe to show.')),
    code: v.pipe(v.picklist(API_ERROR_CODES), v.description('Stable error code; switch on this, not on `detail`.')),
    request_id: v.pipe(v.string(), v.description('The `X-Request-Id` of this answer; quote it to support.')),
  }),
  v.title('ErrorBody'),
  v.examples([
    {
      detail: 'Job job_0123 not found.',
      code: 'NOT_FOUND' as const,
      request_id: '6f1c0c1e-3b8a-4a53-9f53-2d3c4b5a6978',
    },
  ]),
);

export const ValidationErrorBodySchema = v.pipe(
  v.strictObject({
    detail: v.array(
      v.strictObject({
        loc: v.pipe(
          v.array(v.union([v.string(), v.number()])),
          v.description('Where: `body`, `query` or `path`, then the field names and indexes.'),
        ),
        msg: v.string(),
        type: v.pipe(
          v.string(),
          v.description("pydantic v2's error type, e.g. `missing`, `literal_error`, `less_than_equal`."),
        ),
        input: v.optional(v.unknown()),
        ctx: v.optional(v.record(v.string(), v.unknown())),
      }),
    ),
  }),
  v.title('ValidationErrorBody'),
  v.examples([
    {
      detail: [
        {
          loc: ['body', 'num_output_images'],
          msg: 'Input should be less than or equal to 4',
          type: 'less_than_equal',
          input: 9,
          ctx: { le: 4 },
        },
      ],
    },
  ]),
);
