/**
 * Read first: how money moves.
 *
 * The balance lives on the account record; every change to it is one immutable ledger entry written in
 * the same DynamoDB transaction as the balance update, so the sum of an account's entries always equals
 * its balance. A charge belongs to an owner record (a job or a profile) whose `chargeState` goes
 * `reserved` → `settled` | `released` exactly once: settle and release are guarded by a condition on that
 * state, so a retried workflow step finds the condition false and moves nothing (a no-op, not an error).
 *
 * The records, their keys and their transactions are the table adapter's
 * (functions/adapters/dynamo/ledger-repository.ts); the domain hands it typed records and terminal states.
 * Those are the owners' types (jobs/job.ts, profiles/profile.ts), which the ledger writes as handed and
 * never reads: the port takes them as a parameter (`ChargeOwners`), bound to the owners' types where the
 * records become items (functions/adapters/dynamo/records.ts, `OwnerRecords`).
 *
 * Amounts are signed effects on the balance: credit +x, reserve −ceiling, settle +(reserved − final),
 * release +reserved. A settle never charges more than was reserved (the final is capped at the
 * reservation), so a balance that covered its reservations never goes below zero. Money given back (a
 * credit, a release, a settle below its reservation) repays an account's debt first (a refund or a lost
 * dispute left it), as a second entry: a balance above zero never sits beside a debt.
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
  /** A job's settle: outputs its identity retries made again, each charged at the per-output price. */
  retriedOutputs?: number;
  createdAt: number;
}

/**
 * What each kind of owner hands the ledger: the record a reservation creates with its charge, and the
 * terminal states a settle (`settled`) or a release (`released`) writes on it. The ledger needs only the
 * record's id, and a failed job's error code to count it (metered-ledger.ts); the rest goes to the adapter
 * as it is.
 */
export interface ChargeOwners {
  job: { record: { jobId: string }; settled: object; released: { error: { code: string } } };
  profile: { record: { profileId: string }; settled: object; released: object };
}

/** The record a reservation creates with its charge (a job or a profile); it must not exist yet. */
export type ChargedRecord<O extends ChargeOwners = ChargeOwners> =
  | { kind: 'job'; job: O['job']['record'] }
  | { kind: 'profile'; profile: O['profile']['record'] };

/**
 * A client_request_id claimed for a job in the transaction that creates the job: only one request with
 * the id can win, the others get ClientRequestIdTakenError and answer with the winner's job.
 */
export interface ClientRequestIdClaim {
  clientRequestId: string;
  jobId: string;
  /** What makes a repeat the same request (requestFingerprint). */
  fingerprint: string;
  /** Epoch ms until which the claim can still be asked about (the job's longest life). */
  keepUntil: number;
}

export interface ReserveInput<O extends ChargeOwners = ChargeOwners> {
  accountId: string;
  amountMicros: number;
  creates: ChargedRecord<O>;
  claim?: ClientRequestIdClaim;
  at: number;
}

/** How a charge ends with the price paid: a succeeded job or a READY profile. */
export type SettledEnd<O extends ChargeOwners = ChargeOwners> =
  | { kind: 'job'; id: string; end: O['job']['settled'] }
  | { kind: 'profile'; id: string; end: O['profile']['settled'] };
/** How a charge ends refunded: a failed job or a profile in ERROR. */
export type ReleasedEnd<O extends ChargeOwners = ChargeOwners> =
  | { kind: 'job'; id: string; end: O['job']['released'] }
  | { kind: 'profile'; id: string; end: O['profile']['released'] };

/**
 * What the caller of a close already knows of the charge: a synchronous job's reservation, made in this
 * request and held by nothing else, or an asynchronous job's, read with the job just before. The close
 * then skips reading it; the transaction's condition (still reserved, this amount, and for an
 * asynchronous job the status it was read with) still decides, so a charge something else closed
 * meanwhile moves no money, and a status that moved since is read again.
 */
export interface KnownReservation {
  reservedMicros: number;
  /** An asynchronous job's status as the caller read it: a running job gives its place back. */
  asyncJobStatus?: string;
}

/**
 * What a settle could not charge as priced, for the operator: a price above the reservation (the rest is
 * the operator's loss), or usage a token-metered provider did not report (settled at the reservation).
 * The metered ledger logs it and counts it once the settle is applied (metered-ledger.ts).
 */
export interface SettlementNote {
  unbilledMicros: number;
  usageMissing: boolean;
  /** The price the usage gave (null: no usage to price). */
  pricedMicros: number | null;
  /** What the provider charged the operator, where known. */
  providerCostMicros?: number;
}

export interface SettleInput<O extends ChargeOwners = ChargeOwners> {
  accountId: string;
  /** At most the reservation: a larger amount is charged as the reservation. */
  finalMicros: number;
  /** The owner's terminal state, written in the same transaction. */
  ends: SettledEnd<O>;
  at: number;
  known?: KnownReservation;
  note?: SettlementNote;
  /** Outputs identity retries made again, charged in this settle: named on its ledger entry. */
  retriedOutputs?: number;
}

export interface ReleaseInput<O extends ChargeOwners = ChargeOwners> {
  accountId: string;
  ends: ReleasedEnd<O>;
  at: number;
  known?: KnownReservation;
}

export const ownerOf = (record: ChargedRecord): ChargeOwner =>
  record.kind === 'job' ? { kind: 'job', id: record.job.jobId } : { kind: 'profile', id: record.profile.profileId };

/** The outcome of settle or release: `applied` false means a previous attempt already moved the money. */
export interface ChargeOutcome {
  applied: boolean;
  chargeState: ChargeState | null;
  /** When applied: the amount settled (the final price) or refunded (the reservation). */
  amountMicros?: number;
}

export interface LedgerPort<O extends ChargeOwners = ChargeOwners> {
  credit(input: { accountId: string; amountMicros: number; note: string; at: number }): Promise<LedgerEntry>;
  /**
   * Throws InsufficientBalanceError when the balance cannot cover `amountMicros`, and
   * ClientRequestIdTakenError when the claim lost (a lost claim wins over the balance: a replayed
   * submit must not be answered 402).
   */
  reserve(input: ReserveInput<O>): Promise<LedgerEntry>;
  settle(input: SettleInput<O>): Promise<ChargeOutcome>;
  release(input: ReleaseInput<O>): Promise<ChargeOutcome>;
  balance(accountId: string): Promise<number>;
  /** Newest first. */
  recentEntries(accountId: string, limit: number): Promise<LedgerEntry[]>;
}
