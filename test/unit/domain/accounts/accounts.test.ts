import { Webhook } from 'standardwebhooks';
import {
  type Caller,
  PREVIOUS_WEBHOOK_SECRET_VALID_MS,
  rotateWebhookSecret,
  signingSecrets,
  type WebhookSecretDeps,
  type WebhookSecretRecord,
  webhookSecret,
} from '../../../../functions/domain/accounts/accounts';
import { signStandardWebhook } from '../../../../functions/domain/callbacks/signature';
import { ServiceUnavailableError } from '../../../../functions/domain/errors';

/** The webhook-secret half of the accounts repository, with the table adapter's conditional write. */
class FakeWebhookSecrets {
  readonly records = new Map<string, WebhookSecretRecord>();
  /** Runs after a read and before the write that follows it: where another request can come in between. */
  beforeWrite: () => Promise<void> = async () => {};

  async findWebhookSecret(accountId: string) {
    return this.records.get(accountId);
  }

  async replaceWebhookSecret(accountId: string, expected: string | null, next: WebhookSecretRecord) {
    await this.beforeWrite();
    if ((this.records.get(accountId)?.secret ?? null) !== expected) return false;
    this.records.set(accountId, next);
    return true;
  }

  async getOrCreateWebhookSecret(accountId: string, candidate: string, at: number) {
    const existing = this.records.get(accountId);
    if (existing) return existing;
    const created = { secret: candidate, createdAt: at, previous: null };
    this.records.set(accountId, created);
    return created;
  }
}

const T0 = Date.UTC(2026, 4, 1, 10, 0, 0);
const HOUR_MS = 3600 * 1000;
const caller: Caller = { accountId: 'acc_1', keyId: 'key_1' };

// One valid account: a secret in use, read at T0; each test below changes one thing.
const setup = () => {
  const secrets = new FakeWebhookSecrets();
  let now = T0;
  const deps: WebhookSecretDeps = { accounts: secrets, clock: () => now };
  return { secrets, deps, advance: (ms: number) => (now += ms) };
};

describe('rotating the webhook secret', () => {
  it('answers a new secret and until when the previous one still signs', async () => {
    const { deps } = setup();
    const { webhook_signing_secret: old } = await webhookSecret(deps, caller);
    const rotated = await rotateWebhookSecret(deps, caller);
    expect(rotated.webhook_signing_secret).not.toBe(old);
    expect(rotated.previous_secret_expires_at).toBe(new Date(T0 + PREVIOUS_WEBHOOK_SECRET_VALID_MS).toISOString());
  });

  it('the secret read afterwards is the new one, with the window’s end', async () => {
    const { deps } = setup();
    await webhookSecret(deps, caller);
    const rotated = await rotateWebhookSecret(deps, caller);
    expect(await webhookSecret(deps, caller)).toEqual(rotated);
  });

  it('issues secrets the standardwebhooks package reads as they are', async () => {
    const { deps } = setup();
    const { webhook_signing_secret: secret } = await rotateWebhookSecret(deps, caller);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).sign('dlv_1', new Date(T0), '{}')).toBe(
      signStandardWebhook('dlv_1', T0 / 1000, '{}', secret),
    );
  });

  it('signs deliveries with the new and the previous secret inside the window', async () => {
    const { deps, advance } = setup();
    const { webhook_signing_secret: old } = await webhookSecret(deps, caller);
    const { webhook_signing_secret: next } = await rotateWebhookSecret(deps, caller);
    advance(PREVIOUS_WEBHOOK_SECRET_VALID_MS - 1);
    expect(await signingSecrets(deps, caller.accountId)).toEqual({ current: next, previous: old });
  });

  it('signs with the new secret only once the window has passed, and no longer announces its end', async () => {
    const { deps, advance } = setup();
    await webhookSecret(deps, caller);
    const { webhook_signing_secret: next } = await rotateWebhookSecret(deps, caller);
    advance(PREVIOUS_WEBHOOK_SECRET_VALID_MS);
    expect(await signingSecrets(deps, caller.accountId)).toEqual({ current: next });
    expect(await webhookSecret(deps, caller)).toEqual({ webhook_signing_secret: next });
  });

  it('inside an open window replaces the previous secret with the current one: two live at most', async () => {
    const { deps, advance } = setup();
    await webhookSecret(deps, caller);
    const { webhook_signing_secret: second } = await rotateWebhookSecret(deps, caller);
    advance(HOUR_MS);
    const third = await rotateWebhookSecret(deps, caller);
    expect(await signingSecrets(deps, caller.accountId)).toEqual({
      current: third.webhook_signing_secret,
      previous: second,
    });
    expect(third.previous_secret_expires_at).toBe(
      new Date(T0 + HOUR_MS + PREVIOUS_WEBHOOK_SECRET_VALID_MS).toISOString(),
    );
  });

  it('before any secret exists creates one, with nothing previous', async () => {
    const { deps } = setup();
    const rotated = await rotateWebhookSecret(deps, caller);
    expect(rotated).toEqual({ webhook_signing_secret: expect.stringMatching(/^whsec_/) });
    expect(await signingSecrets(deps, caller.accountId)).toEqual({ current: rotated.webhook_signing_secret });
  });

  it('two concurrent rotations both store what they answer: the later one current, the earlier one previous', async () => {
    const { deps, secrets } = setup();
    const { webhook_signing_secret: old } = await webhookSecret(deps, caller);
    // Both rotations read the old secret before either writes.
    let arrived = 0;
    let release: () => void = () => {};
    const bothRead = new Promise<void>((resolve) => (release = resolve));
    secrets.beforeWrite = async () => {
      arrived += 1;
      if (arrived === 2) release();
      await bothRead;
    };
    const answers = (await Promise.all([rotateWebhookSecret(deps, caller), rotateWebhookSecret(deps, caller)])).map(
      (a) => a.webhook_signing_secret,
    );
    const live = await signingSecrets(deps, caller.accountId);
    expect([live.current, live.previous].sort()).toEqual([...answers].sort());
    expect(answers).not.toContain(old);
  });

  it('gives up with 503 when it loses every attempt to other rotations', async () => {
    const { deps, secrets } = setup();
    await webhookSecret(deps, caller);
    secrets.beforeWrite = async () => {
      const stored = secrets.records.get(caller.accountId)!;
      secrets.records.set(caller.accountId, { ...stored, secret: `${stored.secret}x` });
    };
    await expect(rotateWebhookSecret(deps, caller)).rejects.toThrow(ServiceUnavailableError);
  });
});
