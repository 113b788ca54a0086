import { createHash } from 'node:crypto';
import type { LedgerPort } from '../billing/ledger';
import {
  InvalidApiKeyError,
  InvalidRequestError,
  MissingApiKeyError,
  NotFoundError,
  ServiceUnavailableError,
} from '../errors';
import { type Clock, toIso } from '../shared/clock';
import { type IdSource, newSecret } from '../shared/ids';
import { DEFAULT_MODEL_VERSION, type ModelVersion } from '../shared/model-version';
import { ALL_SCOPES, type ApiScope, DEFAULT_KEY_SCOPES } from './scopes';

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
  /** The developer's label for it (the portal asks for one); null for keys made by the admin CLI. */
  name?: string | null;
  /** SHA-256 of the key, hex. The key itself is shown once and never stored. */
  keyHash: string;
  /** What the key may do (scopes.ts); a key stored without them reads as LEGACY_KEY_SCOPES. */
  scopes: readonly ApiScope[];
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
  /** The key's scopes; absent where no API key called (the portal's session, a workflow step). */
  scopes?: readonly ApiScope[];
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
  /** Stores `candidate` unless the account already has a secret; returns the stored record either way (read strongly). */
  getOrCreateWebhookSecret(accountId: string, candidate: string, at: number): Promise<WebhookSecretRecord>;
  /** The stored record, read strongly; undefined before the secret's first use. */
  findWebhookSecret(accountId: string): Promise<WebhookSecretRecord | undefined>;
  /**
   * Stores `next` only if the stored current secret is still `expected` (null: none stored yet), so that of
   * two concurrent rotations one wins and the other learns it lost; false when another write came first.
   */
  replaceWebhookSecret(accountId: string, expected: string | null, next: WebhookSecretRecord): Promise<boolean>;
}

/** An account's callback signing secrets: the current one, and the one a rotation replaced, until it expires. */
export interface WebhookSecretRecord {
  secret: string;
  createdAt: number;
  previous: { secret: string; expiresAt: number } | null;
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
  return {
    accountId: key.accountId,
    keyId: key.keyId,
    scopes: key.scopes,
    requestsPerMinute: key.requestsPerMinute ?? null,
    runningJobs: key.runningJobs ?? null,
  };
};

export interface IssuedKey {
  keyId: string;
  /** Shown once; only its hash is kept. */
  apiKey: string;
}

export const MAX_KEY_NAME_LENGTH = 80;

/** A new key of the account, with `scopes` (already checked: scopes.ts chosenScopes). */
export const issueKey = async (
  deps: AccountsDeps,
  accountId: string,
  name: string | null = null,
  scopes: readonly ApiScope[] = DEFAULT_KEY_SCOPES,
): Promise<IssuedKey> => {
  if (scopes.length === 0) throw new InvalidRequestError('A key needs at least one scope.');
  if (name !== null && (name.trim() === '' || name.length > MAX_KEY_NAME_LENGTH))
    throw new InvalidRequestError(`A key's name has 1 to ${MAX_KEY_NAME_LENGTH} characters.`);
  const account = await deps.accounts.get(accountId);
  if (!account) throw new NotFoundError(`Account ${accountId} not found.`);
  const apiKey = newSecret(API_KEY_PREFIX);
  const keyId = deps.newId('key');
  await deps.accounts.createKey({
    keyId,
    accountId,
    name: name?.trim() ?? null,
    keyHash: hashApiKey(apiKey),
    scopes,
    createdAt: deps.clock(),
    revokedAt: null,
    requestsPerMinute: account.requestsPerMinute ?? null,
    runningJobs: account.runningJobs ?? null,
  });
  return { keyId, apiKey };
};

/** When each key was last used, written at most about once a minute per key (key-use.ts); null: not since this was kept. */
export interface KeyUses {
  record(accountId: string, keyId: string, at: number): Promise<void>;
  lastUses(accountId: string): Promise<Record<string, number>>;
}

export interface KeyBody {
  key_id: string;
  name: string | null;
  scopes: ApiScope[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** The account's keys, newest first, without their secrets (only hashes are kept). */
export const listKeys = async (
  deps: { accounts: Pick<AccountsRepository, 'listKeys'>; keyUses: Pick<KeyUses, 'lastUses'> },
  accountId: string,
): Promise<KeyBody[]> => {
  const [records, uses] = await Promise.all([deps.accounts.listKeys(accountId), deps.keyUses.lastUses(accountId)]);
  return records
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((key) => {
      const lastUsedAt = uses[key.keyId];
      return {
        key_id: key.keyId,
        name: key.name ?? null,
        scopes: [...key.scopes],
        created_at: toIso(key.createdAt),
        last_used_at: lastUsedAt === undefined ? null : toIso(lastUsedAt),
        revoked_at: key.revokedAt === null ? null : toIso(key.revokedAt),
      };
    });
};

export const open = async (
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
  // The first key is the account holder's own: it may do everything, billing included.
  return { account, key: await issueKey(deps, account.accountId, null, ALL_SCOPES) };
};

/** The limits an operator may set per account (admin CLI `limits`). */
export const ACCOUNT_LIMITS = ['requestsPerMinute', 'runningJobs'] as const;
export type AccountLimit = (typeof ACCOUNT_LIMITS)[number];

/** Sets one of the account's limits; null goes back to the configured default. */
export const setLimit = async (
  deps: AccountsDeps,
  accountId: string,
  limit: AccountLimit,
  value: number | null,
): Promise<void> => {
  if (value !== null && (!Number.isSafeInteger(value) || value < 1))
    throw new InvalidRequestError(`The ${limit} limit must be a whole number, at least 1.`);
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
/** After a rotation, deliveries are signed with the previous secret too for this long. */
export const PREVIOUS_WEBHOOK_SECRET_VALID_MS = 24 * 60 * 60 * 1000;
/** Rotations that lose a race re-read and try again; this many losses in a row is contention, not a race. */
const ROTATION_ATTEMPTS = 5;

/** What the webhook-secret use cases need: the secret's part of the repository and the clock. */
export interface WebhookSecretDeps {
  accounts: Pick<AccountsRepository, 'getOrCreateWebhookSecret' | 'findWebhookSecret' | 'replaceWebhookSecret'>;
  clock: Clock;
}

const newWebhookSecret = () => newSecret(WEBHOOK_SECRET_PREFIX, 'base64');

const previousIfLive = (record: WebhookSecretRecord, now: number) =>
  record.previous && record.previous.expiresAt > now ? record.previous : null;

export interface WebhookSecretAnswer {
  webhook_signing_secret: string;
  /** Present while a rotation window is open: until when the previous secret also signs. */
  previous_secret_expires_at?: string;
}

const secretAnswer = (record: WebhookSecretRecord, now: number): WebhookSecretAnswer => {
  const previous = previousIfLive(record, now);
  return {
    webhook_signing_secret: record.secret,
    ...(previous && { previous_secret_expires_at: toIso(previous.expiresAt) }),
  };
};

/** The account's callback signing secret: created on first use, stable until rotated. */
export const webhookSecret = async (deps: WebhookSecretDeps, caller: Caller): Promise<WebhookSecretAnswer> => {
  const now = deps.clock();
  return secretAnswer(await deps.accounts.getOrCreateWebhookSecret(caller.accountId, newWebhookSecret(), now), now);
};

/**
 * A new current secret; the one it replaces keeps signing for PREVIOUS_WEBHOOK_SECRET_VALID_MS. Only two
 * are ever live: a rotation inside an open window drops the older previous one. Before any secret
 * exists it creates one (with nothing previous). A rotation that loses a race to another one re-reads
 * and rotates again, as if the two had come one after the other, so each caller is told a secret that
 * was stored, and the last one told is current.
 */
export const rotateWebhookSecret = async (deps: WebhookSecretDeps, caller: Caller): Promise<WebhookSecretAnswer> => {
  for (let attempt = 1; attempt <= ROTATION_ATTEMPTS; attempt += 1) {
    const now = deps.clock();
    const stored = await deps.accounts.findWebhookSecret(caller.accountId);
    const next: WebhookSecretRecord = {
      secret: newWebhookSecret(),
      createdAt: now,
      previous: stored ? { secret: stored.secret, expiresAt: now + PREVIOUS_WEBHOOK_SECRET_VALID_MS } : null,
    };
    if (await deps.accounts.replaceWebhookSecret(caller.accountId, stored?.secret ?? null, next))
      return secretAnswer(next, now);
  }
  throw new ServiceUnavailableError('The webhook secret is being rotated by other requests; try again.');
};

/** The secrets a callback is signed with now: the current one (created on first use) and the previous one while its window is open. */
export const signingSecrets = async (
  deps: WebhookSecretDeps,
  accountId: string,
): Promise<{ current: string; previous?: string }> => {
  const now = deps.clock();
  const record = await deps.accounts.getOrCreateWebhookSecret(accountId, newWebhookSecret(), now);
  const previous = previousIfLive(record, now);
  return { current: record.secret, ...(previous && { previous: previous.secret }) };
};
