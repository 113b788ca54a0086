/**
 * Read first: who may use the developer portal, and how a browser proves it.
 *
 * - An operator invites an e-mail address (`npm run admin -- invite`), choosing the opening credit: the
 *   invitation is a random token shown once in a link and stored only as its SHA-256, single use (the
 *   acceptance is a conditional write), bound to that e-mail, and dead after INVITATION_TTL_MS.
 * - Accepting it creates, in one transaction, the account (with its credit), the portal user and the
 *   invitation's use: a second acceptance, or a second user for the same e-mail, changes nothing.
 * - Passwords are hashed with scrypt (N 2^14, r 8, p 1, a 16-byte salt per user) and compared in constant
 *   time; an unknown e-mail costs the same scrypt, so timing does not tell who has an account.
 * - A session is a random 32-byte id in an `HttpOnly; Secure; SameSite=Strict` cookie, stored only as its
 *   SHA-256, with an absolute life (SESSION_TTL_MS) and an idle limit (SESSION_IDLE_MS); signing out
 *   deletes it. Each session has its own CSRF token, which every state-changing request must echo in a
 *   header (the handler also refuses a cross-site Origin).
 * - Sign-in attempts are counted per e-mail and per source address (the rate counters' windows).
 *
 * A session is only ever read by the portal's function; the public API reads only `X-API-Key`, and the
 * portal never reads that header: neither credential grants anything in the other's home.
 */
import { createHash, randomBytes, scrypt as scryptCallback, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import type { Account } from '../accounts/accounts';
import { DomainError, InvalidRequestError } from '../errors';
import type { Clock } from '../shared/clock';
import { sameBytes } from '../shared/hmac';
import type { IdSource } from '../shared/ids';
import { DEFAULT_MODEL_VERSION } from '../shared/model-version';

const scrypt = promisify(scryptCallback) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;
/** The opening credit of an invited account when the operator names none: 10 USD. */
export const DEFAULT_INVITATION_CREDIT_MICROS = 10_000_000;
export const SESSION_TTL_MS = 12 * 3600 * 1000;
export const SESSION_IDLE_MS = 2 * 3600 * 1000;
/** A session's last-seen time is written at most this often (a read-mostly session costs no writes). */
export const SESSION_TOUCH_MS = 5 * 60 * 1000;
export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;
export const SIGN_IN_LIMITS = { perEmailPerMinute: 5, perAddressPerMinute: 30 } as const;

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32, maxmem: 64 * 1024 * 1024 } as const;

export interface Invitation {
  tokenHash: string;
  email: string;
  creditMicros: number;
  createdAt: number;
  expiresAt: number;
  acceptedAt: number | null;
}

export interface PortalUser {
  email: string;
  accountId: string;
  passwordHash: string;
  createdAt: number;
}

export interface Session {
  idHash: string;
  email: string;
  accountId: string;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
}

export interface PortalRepository {
  createInvitation(invitation: Invitation): Promise<void>;
  findInvitation(tokenHash: string): Promise<Invitation | undefined>;
  listInvitations(): Promise<Invitation[]>;
  /**
   * In one transaction: the invitation marked accepted (only if it was not), the user created (only if
   * the e-mail has none), the account opened with its credit. `used` or `email-taken` when a condition failed.
   */
  acceptInvitation(input: {
    tokenHash: string;
    user: PortalUser;
    account: Account;
    at: number;
  }): Promise<'accepted' | 'used' | 'email-taken'>;
  findUser(email: string): Promise<PortalUser | undefined>;
  createSession(session: Session): Promise<void>;
  findSession(idHash: string): Promise<Session | undefined>;
  touchSession(idHash: string, at: number): Promise<void>;
  deleteSession(idHash: string): Promise<void>;
}

export interface PortalDeps {
  portal: PortalRepository;
  clock: Clock;
  newId: IdSource;
  /** Counts one attempt under `key` in the current minute; throws RATE_LIMITED past `limit`. */
  admit(key: string, limit: number): Promise<void>;
}

/** A refusal the portal answers in the service's error shape with its own status. */
export class PortalError extends DomainError {}

export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const token = () => randomBytes(32).toString('base64url');
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{2,}$/;

export const hashPassword = async (password: string, salt: Buffer = randomBytes(16)): Promise<string> => {
  const hash = await scrypt(password, salt, SCRYPT.keylen, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
};

export const verifyPassword = async (password: string, stored: string): Promise<boolean> => {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: SCRYPT.maxmem,
  });
  return timingSafeEqual(actual, expected);
};

/** Compared against when the e-mail is unknown, so both answers take one scrypt. */
let decoyHash: Promise<string> | undefined;
const decoy = (): Promise<string> => {
  decoyHash ??= hashPassword('decoy password, never matched');
  return decoyHash;
};

export const checkPassword = (password: string): void => {
  if (password.length < MIN_PASSWORD_LENGTH)
    throw new InvalidRequestError(`The password needs at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (password.length > MAX_PASSWORD_LENGTH)
    throw new InvalidRequestError(`The password may have at most ${MAX_PASSWORD_LENGTH} characters.`);
};

/** `npm run admin -- invite`: the token is shown once; only its hash is kept. */
export const invite = async (
  deps: Pick<PortalDeps, 'portal' | 'clock'>,
  input: { email: string; creditMicros: number },
): Promise<{ token: string; invitation: Invitation }> => {
  const email = normaliseEmail(input.email);
  if (!EMAIL.test(email)) throw new InvalidRequestError(`${input.email} is not an e-mail address.`);
  if (!Number.isSafeInteger(input.creditMicros) || input.creditMicros < 0)
    throw new InvalidRequestError('The opening credit must be a non-negative amount.');
  const secret = token();
  const now = deps.clock();
  const invitation: Invitation = {
    tokenHash: sha256(secret),
    email,
    creditMicros: input.creditMicros,
    createdAt: now,
    expiresAt: now + INVITATION_TTL_MS,
    acceptedAt: null,
  };
  await deps.portal.createInvitation(invitation);
  return { token: secret, invitation };
};

export interface IssuedSession {
  /** The cookie value: shown to the browser only. */
  sessionId: string;
  session: Session;
}

const startSession = async (
  deps: Pick<PortalDeps, 'portal' | 'clock'>,
  user: Pick<PortalUser, 'email' | 'accountId'>,
): Promise<IssuedSession> => {
  const sessionId = token();
  const now = deps.clock();
  const session: Session = {
    idHash: sha256(sessionId),
    email: user.email,
    accountId: user.accountId,
    csrfToken: token(),
    createdAt: now,
    lastSeenAt: now,
    expiresAt: now + SESSION_TTL_MS,
  };
  await deps.portal.createSession(session);
  return { sessionId, session };
};

const invitationRefused = () =>
  new PortalError(
    'INVITATION_INVALID',
    'This invitation link is not valid: it may have expired or been used. Ask for a new one.',
  );

/** Accepting an invitation: the e-mail must be the invited one; the account is opened with the operator's credit. */
export const signUp = async (
  deps: PortalDeps,
  input: { invitation: string; email: string; password: string; name?: string },
): Promise<IssuedSession> => {
  const email = normaliseEmail(input.email);
  checkPassword(input.password);
  const invitation = await deps.portal.findInvitation(sha256(input.invitation));
  const now = deps.clock();
  if (!invitation || invitation.acceptedAt !== null || now >= invitation.expiresAt) throw invitationRefused();
  if (invitation.email !== email)
    throw new PortalError('INVITATION_INVALID', 'This invitation was sent to another e-mail address.');
  const account: Account = {
    accountId: deps.newId('acc'),
    name: input.name?.trim() || email,
    balanceMicros: invitation.creditMicros,
    defaultModelVersion: DEFAULT_MODEL_VERSION,
    createdAt: now,
  };
  const user: PortalUser = {
    email,
    accountId: account.accountId,
    passwordHash: await hashPassword(input.password),
    createdAt: now,
  };
  const outcome = await deps.portal.acceptInvitation({ tokenHash: invitation.tokenHash, user, account, at: now });
  if (outcome === 'used') throw invitationRefused();
  if (outcome === 'email-taken')
    throw new PortalError('EMAIL_TAKEN', 'This e-mail address already has a portal user; sign in instead.');
  return startSession(deps, user);
};

export const signIn = async (
  deps: PortalDeps,
  input: { email: string; password: string; sourceAddress: string },
): Promise<IssuedSession> => {
  const email = normaliseEmail(input.email);
  await deps.admit(`signin-address:${input.sourceAddress}`, SIGN_IN_LIMITS.perAddressPerMinute);
  await deps.admit(`signin-email:${sha256(email)}`, SIGN_IN_LIMITS.perEmailPerMinute);
  const user = input.password.length <= MAX_PASSWORD_LENGTH ? await deps.portal.findUser(email) : undefined;
  const matches = await verifyPassword(
    input.password.slice(0, MAX_PASSWORD_LENGTH),
    user?.passwordHash ?? (await decoy()),
  );
  if (!user || !matches)
    throw new PortalError('INVALID_CREDENTIALS', 'The e-mail address or the password is not right.');
  return startSession(deps, user);
};

const sessionRequired = () => new PortalError('SESSION_REQUIRED', 'Sign in to use the portal.');

/** The session behind a cookie value, alive and not idle; its last-seen time is written at most every 5 minutes. */
export const resolveSession = async (
  deps: Pick<PortalDeps, 'portal' | 'clock'>,
  sessionId: string | undefined,
): Promise<Session> => {
  if (!sessionId) throw sessionRequired();
  const session = await deps.portal.findSession(sha256(sessionId));
  const now = deps.clock();
  if (!session || now >= session.expiresAt || now - session.lastSeenAt >= SESSION_IDLE_MS) throw sessionRequired();
  if (now - session.lastSeenAt >= SESSION_TOUCH_MS) await deps.portal.touchSession(session.idHash, now);
  return session;
};

/** A state-changing request must carry the session's CSRF token (compared in constant time). */
export const checkCsrf = (session: Session, presented: string | undefined): void => {
  if (!sameBytes(Buffer.from(presented ?? ''), Buffer.from(session.csrfToken))) {
    throw new PortalError('CSRF_FAILED', 'The request did not carry this session’s CSRF token; reload the page.');
  }
};

export const signOut = async (deps: Pick<PortalDeps, 'portal'>, session: Session): Promise<void> =>
  deps.portal.deleteSession(session.idHash);
