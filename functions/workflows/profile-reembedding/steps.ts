/** The profile-reembedding workflow's states, parsed at every step. */
import * as v from 'valibot';

export const ListStepSchema = v.object({ modelId: v.string(), cursor: v.nullable(v.string()) });
export const ReembedStepSchema = v.object({ modelId: v.string(), accountId: v.string(), profileId: v.string() });
export const FinishStepSchema = v.object({ modelId: v.string() });
