/**
 * Read first: how money moves.
 *
 * The balance lives on the account record; every change to it is one immutable ledger entry written in
 * the same DynamoDB transaction as the balance update, so the sum of an account's entries always equals
 * its balance. A charge belongs to an owner record (a job or a profile) whose `chargeState` goes
 * `reserved` → `settled` | `released` exactly once: settle and release are guarded by a condition on that
 * state, so a retried workflow step finds the condition false and moves nothing (a no-op, not an error).
 *
 * Amounts are signed effects on the balance: credit +x, reserve −floor, settle +(reserved − final)
 * (negative when a surcharge applies), release +reserved.
 */
export const LEDGER_ENTRY_KINDS = ['credit', 'reserve', 'settle', 'release'] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];

export const CHARGE_OWNER_KINDS = ['job', 'profile'] as const;
export type ChargeOwnerKind = (typeof CHARGE_OWNER_KINDS)[number];

export const CHARGE_STATES = ['reserved', 'settled', 'released'] as const;
export type ChargeState = (typeof CHARGE_STATES)[number];

export interface ChargeOwner {
  kind: ChargeOwnerKind;
  id: string;
}

export interface LedgerEntry {
  entryId: string;
  accountId: string;
  kind: LedgerEntryKind;
  amountMicros: number;
  owner: ChargeOwner | null;
  note: string | null;
  createdAt: number;
}

/** Attributes of the owner record that the caller stores alongside the charge (job or profile fields). */
export type OwnerAttributes = Readonly<Record<string, unknown>>;

export interface ReserveInput {
  accountId: string;
  owner: ChargeOwner;
  amountMicros: number;
  /** The owner record is created by the same transaction that reserves; it must not exist yet. */
  ownerAttributes: OwnerAttributes;
  /** Further records created in the same transaction (e.g. an idempotency record); none may exist yet. */
  companions?: ReadonlyArray<{ sortKey: string; attributes: OwnerAttributes }>;
  at: number;
}

export interface SettleInput {
  accountId: string;
  owner: ChargeOwner;
  finalMicros: number;
  /** Changes to the owner record made in the same transaction (e.g. the job's terminal status). */
  ownerPatch: OwnerAttributes;
  at: number;
}

export interface ReleaseInput {
  accountId: string;
  owner: ChargeOwner;
  ownerPatch: OwnerAttributes;
  at: number;
}

/** The outcome of settle or release: `applied` false means a previous attempt already moved the money. */
export interface ChargeOutcome {
  applied: boolean;
  chargeState: ChargeState | null;
}

export interface LedgerPort {
  credit(input: { accountId: string; amountMicros: number; note: string; at: number }): Promise<LedgerEntry>;
  /** Throws InsufficientBalanceError when the balance cannot cover `amountMicros`. */
  reserve(input: ReserveInput): Promise<LedgerEntry>;
  settle(input: SettleInput): Promise<ChargeOutcome>;
  release(input: ReleaseInput): Promise<ChargeOutcome>;
  balance(accountId: string): Promise<number>;
  /** Newest first. */
  recentEntries(accountId: string, limit: number): Promise<LedgerEntry[]>;
}
