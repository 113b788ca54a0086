import { createHash } from 'node:crypto';
import { InvalidApiKeyError, InvalidRequestError, MissingApiKeyError, NotFoundError } from '../errors';
import type { LedgerPort } from '../billing/ledger';
import type { Clock } from '../shared/clock';
import { newSecret, type IdSource } from '../shared/ids';

export const MODEL_VERSIONS = ['v1', 'v2'] as const;
export type ModelVersion = (typeof MODEL_VERSIONS)[number];
export const DEFAULT_MODEL_VERSION: ModelVersion = 'v2';

export interface Account {
  accountId: string;
  name: string;
  balanceMicros: number;
  defaultModelVersion: ModelVersion;
  createdAt: number;
  /** The operator's limits for this account; null: the configured defaults. */
  requestsPerMinute?: number | null;
  runningJobs?: number | null;
}

export interface ApiKeyRecord {
  keyId: string;
  accountId: string;
  /** SHA-256 of the key, hex. The key itself is shown once and never stored. */
  keyHash: string;
  createdAt: number;
  revokedAt: number | null;
  /** The account's limits, copied onto each of its keys so that authentication reads them for free. */
  requestsPerMinute?: number | null;
  runningJobs?: number | null;
}

/** Who is calling: resolved from the API key, it scopes every read and write that follows. */
export interface Caller {
  accountId: string;
  keyId: string;
  /** The account's own request limit, if the operator set one (rate-limit.ts). */
  requestsPerMinute?: number | null;
  /** The account's own cap of running asynchronous jobs, if the operator set one. */
  runningJobs?: number | null;
}

export interface AccountsRepository {
  /** Creates the account with its opening balance and the matching credit entry; never overwrites. */
  create(account: Account, openingCreditNote: string): Promise<void>;
  get(accountId: string): Promise<Account | undefined>;
  createKey(key: ApiKeyRecord): Promise<void>;
  findKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  listKeys(accountId: string): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked; returns false when the account has no such key. */
  revokeKey(accountId: string, keyId: string, at: number): Promise<boolean>;
  /** Sets (null: clears) one of the account's limits, on the account and every one of its keys. */
  setLimit(accountId: string, limit: AccountLimit, value: number | null): Promise<void>;
  /** Stores `candidate` unless the account already has a secret; returns the stored one either way. */
  getOrCreateWebhookSecret(accountId: string, candidate: string, at: number): Promise<string>;
}

export interface AccountsDeps {
  accounts: AccountsRepository;
  clock: Clock;
  newId: IdSource;
}

export const API_KEY_PREFIX = 'isk';

export const hashApiKey = (apiKey: string): string => createHash('sha256').update(apiKey, 'utf8').digest('hex');

/** Resolves the caller from the `X-API-Key` value: missing → 403, unknown or revoked → 401. */
export const authenticate = async (
  lookup: Pick<AccountsRepository, 'findKeyByHash'>,
  apiKey: string | undefined,
): Promise<Caller> => {
  if (apiKey === undefined || apiKey.trim() === '') throw new MissingApiKeyError();
  const key = await lookup.findKeyByHash(hashApiKey(apiKey.trim()));
  if (!key || key.revokedAt !== null) throw new InvalidApiKeyError();
  return { accountId: key.accountId, keyId: key.keyId, requestsPerMinute: key.requestsPerMinute ?? null, runningJobs: key.runningJobs ?? null };
};

export interface IssuedKey {
  keyId: string;
  /** Shown once; only its hash is kept. */
  apiKey: string;
}

export const issueKey = async (deps: AccountsDeps, accountId: string): Promise<IssuedKey> => {
  const account = await deps.accounts.get(accountId);
  if (!account) throw new NotFoundError(`Account ${accountId} not found.`);
  const apiKey = newSecret(API_KEY_PREFIX);
  const keyId = deps.newId('key');
  await deps.accounts.createKey({ keyId, accountId, keyHash: hashApiKey(apiKey), createdAt: deps.clock(), revokedAt: null, requestsPerMinute: account.requestsPerMinute ?? null, runningJobs: account.runningJobs ?? null });
  return { keyId, apiKey };
};

export const openAccount = async (
  deps: AccountsDeps,
  input: { name: string; openingCreditMicros: number; defaultModelVersion?: ModelVersion },
): Promise<{ account: Account; key: IssuedKey }> => {
  if (!Number.isSafeInteger(input.openingCreditMicros) || input.openingCreditMicros < 0) {
    throw new InvalidRequestError('The opening credit must be a non-negative amount.');
  }
  const account: Account = {
    accountId: deps.newId('acc'),
    name: input.name,
    balanceMicros: input.openingCreditMicros,
    defaultModelVersion: input.defaultModelVersion ?? DEFAULT_MODEL_VERSION,
    createdAt: deps.clock(),
  };
  await deps.accounts.create(account, 'opening credit');
  return { account, key: await issueKey(deps, account.accountId) };
};

/** The limits an operator may set per account (admin CLI `limits`). */
export const ACCOUNT_LIMITS = ['requestsPerMinute', 'runningJobs'] as const;
export type AccountLimit = (typeof ACCOUNT_LIMITS)[number];

/** Sets one of the account's limits; null goes back to the configured default. */
export const setLimit = async (deps: AccountsDeps, accountId: string, limit: AccountLimit, value: number | null): Promise<void> => {
  if (value !== null && (!Number.isSafeInteger(value) || value < 1)) throw new InvalidRequestError(`The ${limit} limit must be a whole number, at least 1.`);
  if (!(await deps.accounts.get(accountId))) throw new NotFoundError(`Account ${accountId} not found.`);
  await deps.accounts.setLimit(accountId, limit, value);
};

export const revokeKey = async (deps: AccountsDeps, accountId: string, keyId: string): Promise<void> => {
  if (!(await deps.accounts.revokeKey(accountId, keyId, deps.clock()))) {
    throw new NotFoundError(`Key ${keyId} not found on account ${accountId}.`);
  }
};

export const creditBalance = async (
  deps: AccountsDeps & { ledger: LedgerPort },
  input: { accountId: string; amountMicros: number; note: string },
) => {
  if (!Number.isSafeInteger(input.amountMicros) || input.amountMicros <= 0) {
    throw new InvalidRequestError('A credit must be a positive amount.');
  }
  if (!(await deps.accounts.get(input.accountId))) throw new NotFoundError(`Account ${input.accountId} not found.`);
  return deps.ledger.credit({ ...input, at: deps.clock() });
};

export const WEBHOOK_SECRET_PREFIX = 'whsec';

/** The account's callback signing secret: created on first use, stable afterwards. */
export const webhookSecret = async (deps: AccountsDeps, caller: Caller): Promise<{ webhook_signing_secret: string }> => ({
  webhook_signing_secret: await deps.accounts.getOrCreateWebhookSecret(
    caller.accountId,
    newSecret(WEBHOOK_SECRET_PREFIX),
    deps.clock(),
  ),
});
