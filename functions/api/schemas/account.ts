/** Request shapes of the account endpoints. */
import * as v from 'valibot';
import { CursorSchema, PageLimitSchema } from './jobs';

export const LedgerQuerySchema = v.object({ cursor: CursorSchema, limit: PageLimitSchema });
export type LedgerQuery = v.InferOutput<typeof LedgerQuerySchema>;
