/**
 * The API's own description, as a client and a browser get it: the OpenAPI document with this
 * deployment as its server, the reference page, and its renderer served by the service itself. The
 * browser test renders the page in Debian's chromium (no browser download) and keeps a screenshot under
 * test-output/; without chromium it is skipped, unless REQUIRE_BROWSER=1 (CI installs chromium).
 */
import fs from 'node:fs';
import path from 'node:path';
import { DOCS_CSP } from '../../functions/api/portal/docs';
import { startTestRuntime, type TestRuntime } from '../support/runtime';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((candidate) => fs.existsSync(candidate));
const SCREENSHOTS = path.join(__dirname, '../../test-output');
const browserIt = CHROMIUM || process.env.REQUIRE_BROWSER === '1' ? it : it.skip;
if (!CHROMIUM && process.env.REQUIRE_BROWSER !== '1')
  console.warn('chromium not installed: the docs page browser test is skipped (Debian: apt-get install chromium)');

let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(() => runtime.close());

describe('the API description', () => {
  it('serves the OpenAPI document without a key, with this deployment as its server', async () => {
    const response = await runtime.call('GET', '/v2/service/openapi.json');
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; servers: unknown; paths: Record<string, unknown> };
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: runtime.url }]);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/v2/service/edit', '/v2/service/uploads', '/v1/service/jobs/{job_id}']),
    );
  });

  it('serves a reference page that loads its renderer and the document from this API only', async () => {
    const response = await runtime.call('GET', '/v2/service/docs');
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await response.text();
    const sources = [...page.matchAll(/(?:src|url:)\s*=?\s*['"]([^'"]+)['"]/g)].map((match) => match[1]);
    expect(sources).toEqual(['docs/scalar.js', 'openapi.json']);
    // Sandboxed in an origin of its own, away from the portal's session (test/unit/page-policies.test.ts).
    expect(response.headers.get('content-security-policy')).toBe(DOCS_CSP);
  });

  it('serves the renderer as it was installed', async () => {
    const response = await runtime.call('GET', '/v2/service/docs/scalar.js');
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const installed = fs.readFileSync(require.resolve('@scalar/api-reference/browser/standalone.js'));
    expect(Buffer.from(await response.arrayBuffer()).equals(installed)).toBe(true);
  });

  browserIt(
    'renders in a browser, sandboxed, with every operation, nothing fetched from elsewhere and nothing refused',
    async () => {
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
      try {
        const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        const elsewhere: string[] = [];
        const problems: string[] = [];
        page.on('request', (request) => {
          if (!request.url().startsWith(runtime.url)) elsewhere.push(request.url());
        });
        // A source the page's CSP refuses shows as a console error: the renderer must need none.
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(message.text());
        });
        page.on('pageerror', (error) => problems.push(error.message));
        await page.goto(`${runtime.url}/v2/service/docs`, { waitUntil: 'networkidle' });
        await page.getByText('Identity-preserving image service', { exact: true }).first().waitFor();
        await page.getByText('Upload a large input directly').first().waitFor();
        fs.mkdirSync(SCREENSHOTS, { recursive: true });
        await page.screenshot({ path: path.join(SCREENSHOTS, 'docs.png') });
        expect(elsewhere).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
