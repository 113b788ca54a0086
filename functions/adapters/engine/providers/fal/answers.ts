/** What the fal adapter reads of fal's queue answers (the client's types, common.d.ts), parsed by one helper. */
import * as v from 'valibot';
import { malformedAnswer, type ProviderAnswer, parseJson } from '../provider-http';

/** The provider's name in errors and logs. */
export const PROVIDER = 'fal';

/** The submit answer (the client's InQueueQueueStatus, common.d.ts), what this adapter reads of it. */
export const SubmitAnswerSchema = v.object({
  request_id: v.pipe(v.string(), v.minLength(1)),
  response_url: v.pipe(v.string(), v.url()),
  status_url: v.pipe(v.string(), v.url()),
  cancel_url: v.pipe(v.string(), v.url()),
  queue_position: v.optional(v.nullable(v.number())),
});

/** QueueStatus (common.d.ts): IN_QUEUE carries queue_position. */
export const StatusAnswerSchema = v.object({
  status: v.picklist(['IN_QUEUE', 'IN_PROGRESS', 'COMPLETED']),
  queue_position: v.optional(v.nullable(v.number())),
});
export type StatusAnswer = v.InferOutput<typeof StatusAnswerSchema>;

/** The image endpoints' outputs (Flux2Output, NanoBananaOutput, imagen3Output, pulidOutput): images by URL. */
export const ResultSchema = v.object({
  images: v.array(v.object({ url: v.pipe(v.string(), v.minLength(1)) })),
  has_nsfw_concepts: v.optional(v.nullable(v.array(v.boolean()))),
});

export const parseAnswer = <T extends v.GenericSchema>(
  schema: T,
  answer: ProviderAnswer,
  what: string,
): v.InferOutput<T> => {
  const parsed = v.safeParse(schema, parseJson(PROVIDER, answer.text));
  if (!parsed.success) throw malformedAnswer(PROVIDER, `${what}: ${v.summarize(parsed.issues)}`);
  return parsed.output;
};
