/**
 * The Content-Security-Policies of the two pages the service serves to browsers. The portal's names no
 * loopback origin once deployed (the local S3 is one only in development), and reaches the service and the
 * bucket only. The docs page runs sandboxed in an opaque origin of its own (no `allow-same-origin`), so
 * its renderer cannot reach the portal's session (test/integration/portal-browser.test.ts proves it in a
 * browser); its inline scripts are allowed by their hashes, each exactly the page's.
 */
import { createHash } from 'node:crypto';
import { DOCS_CSP, DOCS_PAGE } from '../../../functions/api/portal/docs';
import { portalCsp } from '../../../functions/portal/csp';

const directives = (policy: string) =>
  new Map(
    policy.split(';').map((directive) => {
      const [name, ...values] = directive.trim().split(/\s+/);
      return [name!, values] as const;
    }),
  );

describe("the portal page's policy", () => {
  const bucket = 'https://service-bucket.s3.eu-west-1.amazonaws.com';

  it('deployed, reaches the service and the bucket only, and no loopback address', () => {
    const policy = directives(portalCsp({ bucketOrigin: bucket, development: false }));
    expect(policy.get('img-src')).toEqual(["'self'", 'data:', 'blob:', bucket]);
    expect(policy.get('connect-src')).toEqual(["'self'", bucket]);
    expect(policy.get('script-src')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(portalCsp({ bucketOrigin: bucket, development: false })).not.toMatch(/127\.0\.0\.1|localhost|\[::1\]/);
  });

  it('names a loopback bucket (the local S3) in development only', () => {
    for (const local of ['http://127.0.0.1:4569', 'http://localhost:4569', 'http://[::1]:4569']) {
      expect(directives(portalCsp({ bucketOrigin: local, development: true })).get('img-src')).toContain(local);
      const deployed = portalCsp({ bucketOrigin: local, development: false });
      expect(deployed).not.toContain(local);
      expect(directives(deployed).get('connect-src')).toEqual(["'self'"]);
    }
  });
});

describe("the docs page's policy", () => {
  const policy = directives(DOCS_CSP);

  it('sandboxes the page into an opaque origin: scripts run, same-origin access does not', () => {
    expect(policy.get('sandbox')).toContain('allow-scripts');
    expect(policy.get('sandbox')).not.toContain('allow-same-origin');
    expect(policy.get('sandbox')).not.toContain('allow-popups-to-escape-sandbox');
    expect(policy.get('sandbox')).not.toContain('allow-top-navigation');
  });

  it('loads from and connects to this API only, and may not be framed', () => {
    expect(policy.get('default-src')).toEqual(["'none'"]);
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('base-uri')).toEqual(["'none'"]);
    expect(policy.get('form-action')).toEqual(["'none'"]);
  });

  it("allows exactly the page's inline scripts, by hash", () => {
    const inline = [...DOCS_PAGE.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
    expect(inline).toHaveLength(2);
    const hashes = inline.map((script) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    expect(policy.get('script-src')).toEqual(["'self'", ...hashes]);
    expect(policy.get('script-src')).not.toContain("'unsafe-inline'");
    expect(policy.get('script-src')).not.toContain("'unsafe-eval'");
  });
});
