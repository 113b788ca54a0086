/**
 * The engine step's outcome as JSON: what RunEngine hands the workflow (settle, release), and what the
 * job keeps of it (engineRun), parsed by one schema in both places.
 */
import * as v from 'valibot';
import { ERROR_CODES } from '../../domain/errors';

export const JobErrorSchema = v.object({ code: v.picklist(ERROR_CODES), message: v.string() });

export const RunOutcomeSchema = v.variant('outcome', [
  v.object({
    outcome: v.literal('succeeded'),
    outputKeys: v.array(v.string()),
    knownSubjects: v.record(v.string(), v.number()),
    usage: v.object({
      outputTokens: v.number(),
      megapixels: v.number(),
      providerCostMicros: v.optional(v.number()),
    }),
  }),
  v.object({ outcome: v.literal('failed'), error: JobErrorSchema }),
]);

/** What a queued provider's ticket looks like on the job (EngineTicket). */
export const EngineTicketSchema = v.object({
  engine: v.string(),
  requests: v.array(v.objectWithRest({ id: v.string() }, v.union([v.string(), v.number()]))),
  submittedAt: v.number(),
});
