import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { signCallbackBody, verifyCallbackSignature } from '../../../../functions/domain/callbacks/signature';

// One valid delivery; each test below breaks exactly one aspect of it.
const SECRET = 'whsec_fixture_secret';
const BODY =
  '{"job_id":"job_01JABCDEF","status":"succeeded","operation":"remix","created_at":"2026-05-01T10:00:00.000Z",' +
  '"result":{"download_urls":["https://api.example.com/v2/service/downloads/t1"],"images":[]},"error":null,' +
  '"completed_at":"2026-05-01T10:00:07.000Z"}';
// Computed independently: printf '%s' "$BODY" | openssl dgst -sha256 -hmac whsec_fixture_secret
const SIGNATURE = 'sha256=c2f8b9358db98f1de46b59ea3ab19fc9d557808788f459dc75ba91e4876da14a';

describe('callback signature', () => {
  it('signs the raw body as sha256=<hex HMAC-SHA256>', () => {
    expect(signCallbackBody(BODY, SECRET)).toBe(SIGNATURE);
  });

  it('a Buffer of the same bytes signs the same', () => {
    expect(signCallbackBody(Buffer.from(BODY), SECRET)).toBe(SIGNATURE);
  });

  it('the fixture verifies', () => {
    expect(verifyCallbackSignature(BODY, SIGNATURE, SECRET)).toBe(true);
    expect(verifyCallbackSignature(Buffer.from(BODY), SIGNATURE, SECRET)).toBe(true);
  });

  it('one changed body byte fails', () => {
    expect(verifyCallbackSignature(BODY.replace('succeeded', 'succeedeD'), SIGNATURE, SECRET)).toBe(false);
  });

  it('the same JSON re-serialised with other whitespace fails', () => {
    expect(verifyCallbackSignature(JSON.stringify(JSON.parse(BODY), null, 2), SIGNATURE, SECRET)).toBe(false);
  });

  it('a trailing newline on the body fails', () => {
    expect(verifyCallbackSignature(`${BODY}\n`, SIGNATURE, SECRET)).toBe(false);
  });

  it('the wrong secret fails', () => {
    expect(verifyCallbackSignature(BODY, SIGNATURE, 'whsec_other_secret')).toBe(false);
  });

  it('the hex digest without the sha256= prefix fails', () => {
    expect(verifyCallbackSignature(BODY, SIGNATURE.slice('sha256='.length), SECRET)).toBe(false);
  });

  it('another algorithm prefix fails', () => {
    expect(verifyCallbackSignature(BODY, SIGNATURE.replace('sha256=', 'sha1='), SECRET)).toBe(false);
  });

  it('uppercase hex fails, as in GitHub’s format', () => {
    expect(verifyCallbackSignature(BODY, `sha256=${SIGNATURE.slice(7).toUpperCase()}`, SECRET)).toBe(false);
  });

  it('a truncated signature fails', () => {
    expect(verifyCallbackSignature(BODY, SIGNATURE.slice(0, -1), SECRET)).toBe(false);
    expect(verifyCallbackSignature(BODY, SIGNATURE.slice(0, -2), SECRET)).toBe(false);
  });

  it('an over-long signature fails', () => {
    expect(verifyCallbackSignature(BODY, `${SIGNATURE}00`, SECRET)).toBe(false);
  });

  it('surrounding whitespace fails', () => {
    expect(verifyCallbackSignature(BODY, ` ${SIGNATURE}`, SECRET)).toBe(false);
    expect(verifyCallbackSignature(BODY, `${SIGNATURE}\n`, SECRET)).toBe(false);
  });

  it('an empty or missing header fails', () => {
    expect(verifyCallbackSignature(BODY, '', SECRET)).toBe(false);
    expect(verifyCallbackSignature(BODY, 'sha256=', SECRET)).toBe(false);
    expect(verifyCallbackSignature(BODY, undefined, SECRET)).toBe(false);
  });

  it('junk headers return false and never throw', () => {
    for (const header of [
      `sha256=${'zz'.repeat(32)}`,
      `sha256=${'é'.repeat(64)}`,
      'x'.repeat(100_000),
      'sha256=\u0000',
    ]) {
      expect(verifyCallbackSignature(BODY, header, SECRET)).toBe(false);
    }
  });

  it('an empty secret never verifies and cannot sign', () => {
    expect(verifyCallbackSignature(BODY, SIGNATURE, '')).toBe(false);
    expect(() => signCallbackBody(BODY, '')).toThrow(RangeError);
  });

  // @octokit/webhooks-methods is ESM-only and exports only an "import" condition, which jest's CommonJS
  // resolver cannot see; so its verify() runs in a child Node process over the same cases.
  it('@octokit/webhooks-methods agrees on the fixture and on every broken variant', () => {
    const cases: Array<[string, string, string]> = [
      [BODY, SIGNATURE, SECRET],
      [BODY, signCallbackBody(BODY, SECRET), SECRET],
      [BODY.replace('succeeded', 'succeedeD'), SIGNATURE, SECRET],
      [JSON.stringify(JSON.parse(BODY), null, 2), SIGNATURE, SECRET],
      [BODY, SIGNATURE, 'whsec_other_secret'],
      [BODY, SIGNATURE.slice(7), SECRET],
      [BODY, `sha256=${SIGNATURE.slice(7).toUpperCase()}`, SECRET],
      [BODY, SIGNATURE.slice(0, -1), SECRET],
      [BODY, ` ${SIGNATURE}`, SECRET],
      [BODY, '', SECRET],
    ];
    const script = `
      import { verify } from '@octokit/webhooks-methods';
      const cases = JSON.parse(process.argv[1]);
      const results = await Promise.all(cases.map(([body, header, secret]) => verify(secret, body, header).catch(() => false)));
      process.stdout.write(JSON.stringify(results));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(cases)], {
      cwd: path.resolve(__dirname, '../../../..'),
      encoding: 'utf8',
    });
    const octokit: boolean[] = JSON.parse(output);
    const ours = cases.map(([body, header, secret]) => verifyCallbackSignature(body, header, secret));
    expect(octokit).toEqual(ours);
    expect(ours.slice(0, 2)).toEqual([true, true]);
    expect(ours.slice(2).every((valid) => !valid)).toBe(true);
  });
});
