/**
 * The engine step's outcome as JSON: what RunEngine hands the workflow (settle, release), and what the
 * job keeps of it (engineRun), parsed by one schema in both places.
 */
import * as v from 'valibot';
import { RESOLUTIONS } from '../domain/catalog/catalog';
import { OUTPUT_FORMATS } from '../domain/engine/engine';
import { CARRIED_BY } from '../domain/engine/identity';
import { ERROR_CODES } from '../domain/errors';
import { JOB_STATUSES } from '../domain/jobs/job';

export const JobErrorSchema = v.object({ code: v.picklist(ERROR_CODES), message: v.string() });

/** One recognition that counts: output index, profile, and the face's box in the output's pixels. */
export const RecognizedFaceSchema = v.object({
  outputIndex: v.number(),
  profileId: v.string(),
  box: v.object({ x: v.number(), y: v.number(), width: v.number(), height: v.number() }),
  // Both absent on a run recorded before they were kept: such a match was a billed one.
  similarity: v.optional(v.number()),
  billed: v.optional(v.boolean(), true),
});

/** The identity report of a run (engine/identity.ts); absent with identity_check "off" and on runs before it. */
export const IdentityReportSchema = v.object({
  expected: v.array(v.string()),
  outputs: v.array(
    v.object({
      outputIndex: v.number(),
      kept: v.array(v.string()),
      missing: v.array(v.string()),
      attempts: v.number(),
      // Absent on runs recorded before it (issue 42).
      carriedBy: v.optional(v.record(v.string(), v.picklist(CARRIED_BY))),
    }),
  ),
  retriedOutputs: v.optional(v.number()),
  notChecked: v.optional(v.array(v.string())),
});

const UsageSchema = v.object({
  outputTokens: v.number(),
  inputTextTokens: v.optional(v.number()),
  inputImageTokens: v.optional(v.number()),
  tokensMissing: v.optional(v.boolean()),
  megapixels: v.number(),
  providerCostMicros: v.optional(v.number()),
});

/** What identity retries made (outputs, charged to the caller) and used; their provider cost for the operator. */
export const IdentityRetriesSchema = v.object({
  calls: v.number(),
  outputs: v.optional(v.number()),
  usage: v.optional(UsageSchema),
  providerCostMicros: v.optional(v.number()),
});

export const RunOutcomeSchema = v.variant('outcome', [
  v.object({
    outcome: v.literal('succeeded'),
    outputKeys: v.array(v.string()),
    knownSubjects: v.record(v.string(), v.number()),
    // Absent on a run recorded before boxes were kept.
    recognizedFaces: v.optional(v.array(RecognizedFaceSchema)),
    identity: v.optional(IdentityReportSchema),
    identityRetries: v.optional(IdentityRetriesSchema),
    usage: UsageSchema,
  }),
  v.object({ outcome: v.literal('failed'), error: JobErrorSchema }),
]);

/** What a queued provider's ticket looks like on the job (EngineTicket). */
export const EngineTicketSchema = v.object({
  engine: v.string(),
  model: v.optional(v.string()),
  requests: v.array(v.objectWithRest({ id: v.string() }, v.union([v.string(), v.number()]))),
  submittedAt: v.number(),
  webhook: v.optional(v.boolean()),
});

/** The request a job was priced for (PricedRequest), as the job keeps it and as the workflow hands it on. */
export const PricedSchema = v.variant('operation', [
  v.object({
    operation: v.picklist(['edit', 'generate']),
    output: v.object({
      baseModel: v.string(),
      resolution: v.picklist(RESOLUTIONS),
      width: v.number(),
      height: v.number(),
    }),
    numOutputImages: v.number(),
  }),
  v.object({ operation: v.picklist(['enhance', 'remix']), numOutputImages: v.number() }),
]);

/** What RunEngine hands SettleCharge with a success (SettleBasis), so that settle need not read the job. */
export const SettleBasisSchema = v.object({
  priced: PricedSchema,
  outputFormat: v.picklist(OUTPUT_FORMATS),
  reservedMicros: v.optional(v.pipe(v.number(), v.safeInteger())),
  readStatus: v.optional(v.picklist(JOB_STATUSES)),
});
