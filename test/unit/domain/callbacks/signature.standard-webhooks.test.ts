import { Webhook } from 'standardwebhooks';
import { WEBHOOK_SECRET_PREFIX } from '../../../../functions/domain/accounts/accounts';
import {
  callbackSignatureHeaders,
  signCallbackBody,
  standardWebhooksKey,
} from '../../../../functions/domain/callbacks/signature';
import { newSecret } from '../../../../functions/domain/shared/ids';
import { octokitVerify } from '../../../support/octokit-verify';

// One valid delivery; each test below breaks exactly one aspect of it. The secrets are fixed strings in
// the formats the service issues: standard base64 now, base64url before Standard Webhooks support.
const SECRET = 'whsec_MMoOtEqpvPUJeoI7/rV8ao+sy+5sTCQNQEkvbo0B8UY=';
const PREVIOUS_SECRET = 'whsec_KwRsBkHsEQrDcSS/r+q4Ps5a5fzgtWzi0qMrnmTqzJ4=';
const LEGACY_SECRET = 'whsec_gAzwL_gkQRt43y6pBdqRyh2Cx-B0_caWDE6J20A7kik';
const LEGACY_SECRET_WITHOUT_URL_CHARACTERS = 'whsec_Ef7RrOQgiNY8fgMMCE7XWfd3yLAOpVqifsxVKApxJWc';
const ID = 'dlv_01JCALLBACKTEST0000000000';
const AT_MS = Date.UTC(2026, 4, 1, 10, 0, 7, 512);
const BODY =
  '{"job_id":"job_01JABCDEF","status":"succeeded","operation":"remix","result":{"download_urls":[]},"error":null}';

const delivery = (overrides: Partial<Parameters<typeof callbackSignatureHeaders>[0]> = {}) =>
  callbackSignatureHeaders({ id: ID, atMs: AT_MS, body: BODY, secrets: { current: SECRET }, ...overrides });

/** What a Standard Webhooks receiver does: true when `new Webhook(secret).verify` accepts the delivery. */
const standardVerifies = (secret: string, headers: Record<string, string>, body = BODY): boolean => {
  try {
    new Webhook(secret).verify(body, headers);
    return true;
  } catch {
    return false;
  }
};

/** The conversion docs/callbacks.md gives holders of a base64url secret: standard alphabet, padded. */
const toStandardAlphabet = (secret: string) => {
  const encoded = secret.slice('whsec_'.length).replace(/-/g, '+').replace(/_/g, '/');
  return `whsec_${encoded}${'='.repeat((4 - (encoded.length % 4)) % 4)}`;
};

beforeEach(() => {
  // The package checks the timestamp against its own clock (±5 min).
  jest.useFakeTimers({ now: AT_MS + 30_000 });
});
afterEach(() => jest.useRealTimers());

describe('Standard Webhooks headers of a delivery', () => {
  it('the fixture verifies with the standardwebhooks package', () => {
    expect(new Webhook(SECRET).verify(BODY, delivery())).toEqual(JSON.parse(BODY));
  });

  it('carries the delivery id and the attempt time in whole seconds', () => {
    expect(delivery()).toMatchObject({ 'webhook-id': ID, 'webhook-timestamp': String(Math.floor(AT_MS / 1000)) });
  });

  it('is byte for byte what the package signs', () => {
    expect(delivery()['webhook-signature']).toBe(new Webhook(SECRET).sign(ID, new Date(AT_MS), BODY));
  });

  it('a changed body fails', () => {
    expect(standardVerifies(SECRET, delivery(), BODY.replace('succeeded', 'succeedeD'))).toBe(false);
  });

  it('a changed timestamp fails', () => {
    expect(standardVerifies(SECRET, { ...delivery(), 'webhook-timestamp': String(Math.floor(AT_MS / 1000) + 1) })).toBe(
      false,
    );
  });

  it('a changed id fails', () => {
    expect(standardVerifies(SECRET, { ...delivery(), 'webhook-id': `${ID}x` })).toBe(false);
  });

  it('another secret fails', () => {
    expect(standardVerifies(PREVIOUS_SECRET, delivery())).toBe(false);
  });
});

describe('X-Service-Signature of a delivery', () => {
  it('is the spec header, verifiable with @octokit/webhooks-methods, and fails for a changed body', () => {
    const signature = delivery()['X-Service-Signature']!;
    expect(signature).toBe(signCallbackBody(BODY, SECRET));
    expect(
      octokitVerify([
        { secret: SECRET, payload: BODY, signature },
        { secret: SECRET, payload: `${BODY} `, signature },
      ]),
    ).toEqual([true, false]);
  });
});

describe('during a rotation window', () => {
  const inWindow = () => delivery({ secrets: { current: SECRET, previous: PREVIOUS_SECRET } });

  it('webhook-signature lists the new secret’s signature, then the old one’s', () => {
    const [first, second, ...rest] = inWindow()['webhook-signature']!.split(' ');
    expect([first, second, rest]).toEqual([
      new Webhook(SECRET).sign(ID, new Date(AT_MS), BODY),
      new Webhook(PREVIOUS_SECRET).sign(ID, new Date(AT_MS), BODY),
      [],
    ]);
  });

  it('both the new and the old secret verify the Standard Webhooks header', () => {
    expect([standardVerifies(SECRET, inWindow()), standardVerifies(PREVIOUS_SECRET, inWindow())]).toEqual([true, true]);
  });

  it('X-Service-Signature is made with the new secret only', () => {
    const signature = inWindow()['X-Service-Signature']!;
    expect(
      octokitVerify([
        { secret: SECRET, payload: BODY, signature },
        { secret: PREVIOUS_SECRET, payload: BODY, signature },
      ]),
    ).toEqual([true, false]);
  });

  it('once the window is closed (no previous secret), only the new secret verifies', () => {
    expect([standardVerifies(SECRET, delivery()), standardVerifies(PREVIOUS_SECRET, delivery())]).toEqual([
      true,
      false,
    ]);
  });
});

describe('signing keys', () => {
  it('a newly issued secret is read by the package as is, to the 32-byte key we sign with', () => {
    const secret = newSecret(WEBHOOK_SECRET_PREFIX, 'base64');
    expect(standardVerifies(secret, delivery({ secrets: { current: secret } }))).toBe(true);
    expect(standardWebhooksKey(secret)).toHaveLength(32);
  });

  it('a base64url secret issued before signs verifiably once converted to the standard alphabet', () => {
    const headers = delivery({ secrets: { current: LEGACY_SECRET } });
    expect(() => new Webhook(LEGACY_SECRET)).toThrow();
    expect(standardVerifies(toStandardAlphabet(LEGACY_SECRET), headers)).toBe(true);
    expect(standardWebhooksKey(LEGACY_SECRET)).toEqual(Buffer.from(LEGACY_SECRET.slice('whsec_'.length), 'base64url'));
  });

  it('a base64url secret issued before still verifies X-Service-Signature as it is', () => {
    const signature = delivery({ secrets: { current: LEGACY_SECRET } })['X-Service-Signature']!;
    expect(octokitVerify([{ secret: LEGACY_SECRET, payload: BODY, signature }])).toEqual([true]);
  });

  it('a base64url secret without - or _ is read by the package as is', () => {
    expect(
      standardVerifies(
        LEGACY_SECRET_WITHOUT_URL_CHARACTERS,
        delivery({ secrets: { current: LEGACY_SECRET_WITHOUT_URL_CHARACTERS } }),
      ),
    ).toBe(true);
  });

  it('a secret that is not base64 after its prefix cannot sign', () => {
    expect(() => standardWebhooksKey('whsec_not base64!')).toThrow(RangeError);
  });
});
