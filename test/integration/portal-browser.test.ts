/**
 * The developer portal in a browser (Debian's chromium, driven by playwright-core; no browser download):
 * an invited developer signs up, creates a key, uses it for an async job with a callback, sees the job,
 * its cost and its delivery, redelivers it, rotates the webhook secret and tests a receiver, sees a
 * profile, revokes the key and the API answers 401. Each page is kept as a screenshot under test-output/.
 * Without chromium the test is skipped, unless REQUIRE_BROWSER=1 (CI installs chromium).
 */
import type { Page, Request } from 'playwright-core';
import { services } from '../../bin/local-aws/services';
import { DynamoPortal } from '../../functions/adapters/dynamo/portal-repository';
import { pictureKey } from '../../functions/adapters/s3/photo-store';
import { presignedOrigin } from '../../functions/composition/storage';
import { invite } from '../../functions/domain/portal/portal';
import { newId } from '../../functions/domain/shared/ids';
import { browserIt as browserItFor, CHROMIUM, shoot } from '../support/browser';
import { tinyJpeg } from '../support/images';
import { seedProfile } from '../support/profiles';
import { startReceiver } from '../support/receiver';
import { startTestRuntime, type TestRuntime } from '../support/runtime';
import { until as waitUntil } from '../support/wait';

const browserIt = browserItFor('the portal browser test');

/** What the page functions read in the browser (this suite compiles without the DOM library). */
interface LoadedImage {
  complete: boolean;
  naturalWidth: number;
}
interface BrowserGlobals {
  origin: string;
  fetch: typeof fetch;
  navigator: { clipboard: { readText(): Promise<string> } };
  sessionStorage: {
    getItem(name: string): string | null;
    setItem(name: string, value: string): void;
    removeItem(name: string): void;
  };
  document: {
    activeElement: { textContent: string | null } | null;
    cookie: string;
    body: { append(node: unknown): void };
    createElement(name: 'iframe'): { contentWindow: { sessionStorage: unknown } };
  };
  getComputedStyle(element: unknown): { outlineStyle: string };
}

let runtime: TestRuntime;

beforeAll(async () => {
  // Keys are read on every request (no cache), so a revocation shows at once.
  runtime = await startTestRuntime({ env: { CALLBACK_RETRY_SCALE: '0', API_KEY_CACHE_SECONDS: '0' } });
});
afterAll(() => runtime.close());

const until = (check: () => Promise<boolean>) => waitUntil(check, 20_000);

/**
 * What a script on a page can reach of the portal's session: the cookie, this tab's sessionStorage (where
 * the playground keeps its API key), the session's CSRF token through GET /portal/api/session, and a key
 * minted through POST /portal/api/keys with the browser's credentials. Run in the page, as an injected
 * script would.
 */
const probeSession = (page: Page) =>
  page.evaluate(async () => {
    const { document, fetch, origin, sessionStorage } = globalThis as unknown as BrowserGlobals;
    const attempt = async (read: () => unknown) => {
      try {
        return { read: await read() };
      } catch (error) {
        return { refused: (error as Error).name };
      }
    };
    const frame = document.createElement('iframe');
    document.body.append(frame);
    return {
      origin,
      cookie: await attempt(() => document.cookie),
      storage: await attempt(() => sessionStorage.getItem('portal.playground.api-key')),
      // A fresh frame's storage: the real one, whatever the page's script put in place of its own.
      frameStorage: await attempt(() => (frame.contentWindow.sessionStorage as typeof sessionStorage).getItem('x')),
      session: await attempt(async () => {
        const answer = await fetch('/portal/api/session', { credentials: 'include' });
        return answer.ok ? ((await answer.json()) as { csrf_token?: string }).csrf_token !== undefined : answer.status;
      }),
      // A form-like POST needs no CORS preflight: it is sent, and only its answer is hidden from the script.
      mint: await attempt(async () => {
        const answer = await fetch('/portal/api/keys', {
          method: 'POST',
          credentials: 'include',
          mode: 'no-cors',
          headers: { 'Content-Type': 'text/plain' },
          body: JSON.stringify({ name: 'minted by the docs page' }),
        });
        return answer.type;
      }),
    };
  });

describe('the developer portal in a browser', () => {
  browserIt(
    'takes an invited developer from sign-up to a job, its cost and its delivery, and a revoked key',
    async () => {
      const email = `dev-${Date.now()}@example.com`;
      const { token } = await invite(
        { portal: new DynamoPortal(services().table, newId), clock: Date.now },
        { email, creditMicros: 25_000_000 },
      );
      const receiver = await startReceiver([200]);

      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
      try {
        const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: runtime.url });
        const page = await context.newPage();
        const elsewhere: string[] = [];
        const problems: string[] = [];
        // Nothing but this service, and the storage its download links redirect to.
        page.on('request', (request) => {
          const viaDownloadLink =
            request.redirectedFrom()?.url().startsWith(`${runtime.url}/v2/service/downloads/`) ?? false;
          if (!request.url().startsWith(runtime.url) && !viaDownloadLink) elsewhere.push(request.url());
        });
        // The docs page probe's refusals (CORS, the portal's 403s) are expected, not the pages' problems.
        let probing = false;
        page.on('pageerror', (error) => problems.push(error.message));
        page.on('console', (message) => {
          if (message.type() === 'error' && !probing) problems.push(message.text());
        });
        page.on('response', (response) => {
          if (response.status() >= 400 && !probing) problems.push(`${response.status()} ${response.url()}`);
        });
        page.on('dialog', (dialog) => void dialog.accept());

        // Sign up through the invitation link.
        await page.goto(`${runtime.url}/portal#/signup?invitation=${token}`);
        await page.getByLabel('E-mail (the invited address)').fill(email.toUpperCase());
        await page.getByLabel('Password (at least 12 characters)').fill('a long enough passphrase');
        await shoot(page, 'signup');
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.getByTestId('balance').filter({ hasText: '25.00 USD' }).waitFor();

        // A key, shown once, copied.
        await page.getByRole('link', { name: 'API keys' }).click();
        await page.getByLabel('Name').fill('integration test');
        await page.getByRole('button', { name: 'Create key' }).click();
        const apiKey = await page.locator('#new-key').inputValue();
        expect(apiKey).toMatch(/^isk_/);
        await page.getByRole('button', { name: 'Copy' }).click();
        expect(
          await page.evaluate(() => (globalThis as unknown as BrowserGlobals).navigator.clipboard.readText()),
        ).toBe(apiKey);
        await page.getByRole('cell', { name: 'integration test', exact: true }).waitFor();

        // The portal page's policy: the service and the bucket (here the local S3, on loopback: development).
        const portalPolicy = (await page.request.get(`${runtime.url}/portal`)).headers()['content-security-policy'];
        const localS3 = presignedOrigin();
        expect(localS3).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
        expect(/img-src ([^;]*)/.exec(portalPolicy ?? '')?.[1]?.split(' ')).toEqual([
          "'self'",
          'data:',
          'blob:',
          localS3,
        ]);
        expect(/connect-src ([^;]*)/.exec(portalPolicy ?? '')?.[1]?.split(' ')).toEqual(["'self'", localS3]);

        // The docs page shares the portal's origin but not its session. In this very tab, with the playground's
        // key in sessionStorage, the same probe that reads the session on a portal page reads nothing there.
        await page.evaluate(() =>
          (globalThis as unknown as BrowserGlobals).sessionStorage.setItem('portal.playground.api-key', 'isk_probe'),
        );
        probing = true;
        const onPortal = await probeSession(page);
        expect(onPortal).toMatchObject({
          origin: runtime.url,
          storage: { read: 'isk_probe' },
          session: { read: true },
        });
        const sentToPortal: Array<Promise<string | undefined>> = [];
        const watchPortalCalls = (request: Request) => {
          if (request.url().includes('/portal/api/')) sentToPortal.push(request.allHeaders().then((all) => all.cookie));
        };
        page.on('request', watchPortalCalls);
        await page.goto(`${runtime.url}/v2/service/docs`, { waitUntil: 'networkidle' });
        await page.getByText('Identity-preserving image service', { exact: true }).first().waitFor();
        const onDocs = await probeSession(page);
        page.off('request', watchPortalCalls);
        expect(onDocs).toEqual({
          origin: 'null',
          cookie: { refused: 'SecurityError' },
          storage: { read: null },
          frameStorage: { refused: 'SecurityError' },
          session: { refused: 'TypeError' },
          mint: { read: 'opaque' },
        });
        // Both requests reached the portal without the session cookie; neither minted a key.
        expect(await Promise.all(sentToPortal)).toEqual([undefined, undefined]);
        await page.goto(`${runtime.url}/portal#/keys`);
        await page.getByRole('cell', { name: 'integration test', exact: true }).waitFor();
        probing = false;
        expect(await page.getByText('minted by the docs page').count()).toBe(0);
        expect(
          await page.evaluate(() => {
            const { sessionStorage } = globalThis as unknown as BrowserGlobals;
            const kept = sessionStorage.getItem('portal.playground.api-key');
            sessionStorage.removeItem('portal.playground.api-key');
            return kept;
          }),
        ).toBe('isk_probe');

        // The key at work: an async job with a callback.
        const submitted = await runtime.call('POST', '/v2/service/generate', {
          apiKey,
          body: { prompt: 'a lighthouse at dawn', async: true, callback_url: receiver.url },
        });
        expect(submitted.status).toBe(202);
        const { job_id: jobId } = (await submitted.json()) as { job_id: string };
        await receiver.waitFor(1);
        const job = (await (await runtime.call('GET', `/v2/service/jobs/${jobId}`, { apiKey })).json()) as {
          status: string;
          cost: { final: string };
        };
        expect(job.status).toBe('succeeded');

        // The job, its cost, its output and its delivery.
        await page.getByRole('link', { name: 'Jobs' }).click();
        const jobRow = page.getByRole('row').filter({ hasText: jobId });
        await jobRow.waitFor();
        await expect(jobRow.getByText('succeeded')).toBeTruthy();
        expect(await jobRow.textContent()).toContain(job.cost.final);
        const thumbnail = jobRow.getByRole('img', { name: `Output of ${jobId}` });
        await until(() => thumbnail.evaluate((image: LoadedImage) => image.complete && image.naturalWidth > 0));
        await jobRow.getByRole('button', { name: 'Deliveries' }).click();
        const attempts = page.locator('tr.deliveries');
        await attempts.getByRole('cell', { name: '200', exact: true }).waitFor();
        await shoot(page, 'jobs');
        await attempts.getByRole('button', { name: 'Redeliver' }).click();
        await page.getByRole('status').filter({ hasText: 'is queued' }).waitFor();
        await receiver.waitFor(2);
        expect(JSON.parse(receiver.received[1]!.body)).toMatchObject({ job_id: jobId, status: 'succeeded' });
        await until(async () => (await attempts.getByRole('cell', { name: '200', exact: true }).count()) === 2);

        // The ledger shows the charge, and the balance what is left.
        await page.getByRole('link', { name: 'Overview' }).click();
        await page.getByRole('cell', { name: jobId }).first().waitFor();
        const left = (25_000_000 - Math.round(Number(job.cost.final) * 1e6)) / 1e6;
        await page
          .getByTestId('balance')
          .filter({ hasText: `${left.toFixed(2)} USD` })
          .waitFor();
        await page.getByRole('img', { name: /Spend per day over the last 30 days/ }).waitFor();
        await shoot(page, 'overview');

        // The webhook secret: revealed as the API has it, rotated, and a receiver tested.
        await page.getByRole('link', { name: 'Webhooks' }).click();
        const secret = (
          (await (await runtime.call('GET', '/v2/service/webhook-secret', { apiKey })).json()) as {
            webhook_signing_secret: string;
          }
        ).webhook_signing_secret;
        await page.getByRole('button', { name: 'Reveal' }).click();
        await until(
          async () => (await page.getByRole('textbox', { name: 'Current signing secret' }).inputValue()) === secret,
        );
        await page.getByRole('button', { name: 'Rotate' }).click();
        await until(
          async () => (await page.getByRole('textbox', { name: 'Current signing secret' }).inputValue()) !== secret,
        );
        await page.getByLabel('Receiver URL (https)').fill(receiver.url);
        await page.getByRole('button', { name: 'Send a test event' }).click();
        await page.getByText(/Delivered: HTTP 200/).waitFor();
        // The screenshot shows no secret.
        await page.getByRole('button', { name: 'Hide' }).click();
        await shoot(page, 'webhooks');

        // A profile with its picture.
        const session = (await (await runtime.call('GET', '/v2/service/account', { apiKey })).json()) as {
          account_id: string;
        };
        const profile = await seedProfile(session.account_id, { status: 'READY', tag: 'team-a' });
        await services().objects.put(
          pictureKey(session.account_id, profile.profileId),
          await tinyJpeg(96, 96),
          'image/jpeg',
        );
        await seedProfile(session.account_id, {
          profileId: profile.profileId,
          status: 'READY',
          tag: 'team-a',
          pictureKey: pictureKey(session.account_id, profile.profileId),
        });
        await page.getByRole('link', { name: 'Profiles' }).click();
        const picture = page.getByRole('img', { name: `Picture of ${profile.profileId}` });
        await until(() => picture.evaluate((image: LoadedImage) => image.complete && image.naturalWidth > 0));
        await page.getByRole('cell', { name: 'team-a', exact: true }).waitFor();
        await shoot(page, 'profiles');

        // Revoked in the portal, refused by the API.
        await page.getByRole('link', { name: 'API keys' }).click();
        await page.getByRole('button', { name: 'Revoke integration test' }).click();
        await page.getByRole('cell', { name: 'revoked', exact: true }).waitFor();
        expect((await runtime.call('GET', '/v2/service/account', { apiKey })).status).toBe(401);
        await page.getByRole('row').filter({ hasText: 'integration test' }).getByText(/\d/).first().waitFor();
        await shoot(page, 'keys');

        // Keyboard only: from a fresh load, Tab reaches the skip link, then the navigation, each visibly outlined.
        await page.goto(`${runtime.url}/portal#/overview`);
        await page.getByTestId('balance').waitFor();
        const focused = () =>
          page.evaluate(() => {
            const { document, getComputedStyle } = globalThis as unknown as BrowserGlobals;
            const element = document.activeElement!;
            return { text: element.textContent, outline: getComputedStyle(element).outlineStyle };
          });
        await page.keyboard.press('Tab');
        expect(await focused()).toEqual({ text: 'Skip to content', outline: 'solid' });
        await page.keyboard.press('Tab');
        expect(await focused()).toEqual({ text: 'Overview', outline: 'solid' });

        expect(elsewhere).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await browser.close();
        await receiver.close();
      }
    },
    120_000,
  );
});
