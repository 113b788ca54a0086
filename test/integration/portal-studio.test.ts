/**
 * @jest-environment ./test/faces/onnx-environment.js
 */
/**
 * The profile studio and the playground in a browser (Debian's chromium, driven by playwright-core; no
 * browser download): a developer creates a key for the tab, uploads real face photos as direct uploads,
 * sees each checked by the preflight (faces outlined, a faceless photo flagged; one more photo and only it
 * is read), trains a profile to
 * READY, then in the playground runs a generate with `[[id]]` and an enhance with `profile_ids` (the
 * sandbox engine places or keeps the profile's face, so recognition counts it), sees the subject counted
 * and outlined, copies the curl and runs it with the key to the same `known_subjects`. Each step is kept
 * as a screenshot under test-output/ (also at 375 px wide). Without chromium the test is skipped, unless
 * REQUIRE_BROWSER=1.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';

import { services } from '../../bin/local-aws/services';
import { DynamoPortal } from '../../functions/adapters/dynamo/portal-repository';
import { invite } from '../../functions/domain/portal/portal';
import { newId } from '../../functions/domain/shared/ids';
import { browserIt as browserItFor, CHROMIUM, shoot } from '../support/browser';
import { subjectPhoto, variedPhoto } from '../support/photos';
import { startTestRuntime, type TestRuntime } from '../support/runtime';
import { until as waitUntil } from '../support/wait';

const browserIt = browserItFor('the portal studio browser test');

/** What the page functions read in the browser (this suite compiles without the DOM library). */
interface BrowserGlobals {
  DataTransfer: new () => { items: { add(file: unknown): void } };
  File: new (parts: unknown[], name: string, options: { type: string }) => unknown;
  atob(base64: string): string;
  navigator: { clipboard: { readText(): Promise<string> } };
  sessionStorage: { getItem(key: string): string | null };
  localStorage: { length: number };
  document: { documentElement: { scrollWidth: number } };
}
interface LoadedImage {
  complete: boolean;
  naturalWidth: number;
}

let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(() => runtime.close());

const until = (check: () => Promise<boolean>) => waitUntil(check, 30_000);

const jpeg = (name: string, buffer: Buffer) => ({ name, mimeType: 'image/jpeg', buffer });

describe('the profile studio and the playground in a browser', () => {
  browserIt(
    'trains a profile from uploaded photos, then generates and enhances with it as curl reproduces',
    async () => {
      const email = `studio-${Date.now()}@example.com`;
      const { token } = await invite(
        { portal: new DynamoPortal(services().table, newId), clock: Date.now },
        { email, creditMicros: 25_000_000 },
      );
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: runtime.url });
      const page = await context.newPage();
      const elsewhere: string[] = [];
      const problems: string[] = [];
      try {
        // Nothing but this service: its API, and its own bucket (the direct uploads' PUTs, the download links' redirects).
        page.on('request', (request) => {
          const url = request.url();
          const ours = [runtime.url, runtime.endpoints.s3, 'data:', 'blob:'].some((origin) => url.startsWith(origin));
          if (!ours) elsewhere.push(url);
        });
        page.on('pageerror', (error) => problems.push(error.message));
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(message.text());
        });
        page.on('response', (response) => {
          if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
        });

        await page.goto(`${runtime.url}/portal#/signup?invitation=${token}`);
        await page.getByLabel('E-mail (the invited address)').fill(email);
        await page.getByLabel('Password (at least 12 characters)').fill('a long enough passphrase');
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.getByTestId('balance').waitFor();

        // The studio: a key for this tab, made by the page.
        await page.getByRole('link', { name: 'Profile studio', exact: true }).click();
        await page.getByRole('button', { name: 'Create a "playground" key' }).click();
        await page.getByTestId('tab-key').waitFor();
        const apiKey = await page.evaluate(() =>
          (globalThis as unknown as BrowserGlobals).sessionStorage.getItem('portal.playground.api-key'),
        );
        expect(apiKey).toMatch(/^isk_/);
        expect(await page.evaluate(() => (globalThis as unknown as BrowserGlobals).localStorage.length)).toBe(0);

        // Five photos of one person and one without a face, uploaded directly and checked as they arrive.
        const photos = [];
        for (let index = 0; index < 5; index += 1)
          photos.push(jpeg(`astronaut-${index + 1}.jpg`, await subjectPhoto(index, 'jpeg')));
        photos.push(jpeg('shapes.jpg', await variedPhoto(3)));
        await page.getByLabel('Fast: 5 to 10 photos', { exact: false }).check();
        await page.getByLabel('Training photos (5 to 50)').setInputFiles(photos);
        const faceless = page.getByTestId('photo').filter({ hasText: 'shapes.jpg' });
        await faceless.locator('[data-code="no_face"]').waitFor({ timeout: 60_000 });
        expect(await faceless.textContent()).toContain('No face found');
        const summary = page.getByTestId('preflight-summary');
        await summary.filter({ hasText: '5 usable of the 4 needed' }).waitFor({ timeout: 60_000 });
        // Each usable photo has its one face outlined.
        for (let index = 0; index < 5; index += 1) {
          const card = page.getByTestId('photo').filter({ hasText: `astronaut-${index + 1}.jpg` });
          expect(await card.getByTestId('face-box').count()).toBe(1);
          expect(await card.textContent()).toContain('Usable');
        }
        expect(await faceless.getByTestId('face-box').count()).toBe(0);
        await shoot(page, 'studio-photos');

        // One more photo: the set is checked again, but only the new upload is read (the service remembers
        // each upload it read, and rewrites a record only when it reads the photo again).
        const account = (await (await runtime.call('GET', '/v2/service/account', { apiKey: apiKey ?? '' })).json()) as {
          account_id: string;
        };
        const remembered = async () =>
          new Map(
            (
              (
                await services().table.doc.send(
                  new QueryCommand({
                    TableName: services().table.name,
                    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
                    ExpressionAttributeValues: { ':pk': `RATE#${account.account_id}`, ':prefix': 'PREFLIGHT#' },
                  }),
                )
              ).Items ?? []
            ).map((item) => [item.sk as string, item.writtenAt as number]),
          );
        const before = await remembered();
        expect(before.size).toBe(6);
        await page
          .getByLabel('Training photos (5 to 50)')
          .setInputFiles([jpeg('astronaut-6.jpg', await subjectPhoto(5, 'jpeg'))]);
        await summary.filter({ hasText: '6 usable of the 4 needed' }).waitFor({ timeout: 60_000 });
        const after = await remembered();
        expect(after.size).toBe(7);
        for (const [name, writtenAt] of before) expect(after.get(name)).toBe(writtenAt);

        // Train, and watch it to READY with its picture and reference crops.
        await page.getByLabel('Tag (optional)').fill('astronaut');
        await page.getByRole('button', { name: 'Train', exact: true }).click();
        const ready = page.getByRole('heading', { name: /is READY$/ });
        await ready.waitFor({ timeout: 60_000 });
        const profileId = ((await ready.textContent()) ?? '').replace(' is READY', '');
        expect(profileId).toMatch(/^prf_/);
        const picture = page.getByRole('img', { name: `Picture of ${profileId}` });
        await until(() => picture.evaluate((image: LoadedImage) => image.complete && image.naturalWidth > 0));
        const crop = page.getByRole('img', { name: `Reference crop 1 of ${profileId}` });
        await until(() => crop.evaluate((image: LoadedImage) => image.complete && image.naturalWidth > 0));
        await shoot(page, 'studio-ready');

        // The playground: a generate naming the profile in the prompt, its least cost said before it runs.
        await page.getByRole('link', { name: 'Playground', exact: true }).click();
        await page.getByLabel('Operation').selectOption('generate');
        await page.getByLabel('Base model').selectOption('base-a-2');
        await page.getByRole('button', { name: `Insert [[${profileId}]] into the prompt` }).click();
        await page.getByLabel('Prompt', { exact: true }).pressSequentially(' on the moon, studio light');
        expect(await page.locator('#estimate').textContent()).toContain(
          'This request costs at least 0.04 USD (0.04 per 1K image × 1)',
        );
        await page.getByRole('button', { name: 'Run', exact: true }).click();
        const subjects = page.getByTestId('known-subjects');
        await subjects.filter({ hasText: `${profileId} × 1` }).waitFor({ timeout: 60_000 });
        const results = page.locator('section.results');
        await results.getByTestId('face-box').first().waitFor();
        await page.getByTestId('cost').filter({ hasText: 'USD final' }).waitFor();
        await shoot(page, 'playground-generate');

        // The curl, as the copy button copies it, run with the key: the same subject counted.
        // By keyboard: the copy button takes the focus and Enter.
        await page.getByRole('button', { name: 'Copy the curl command' }).focus();
        await page.keyboard.press('Enter');
        await page.getByRole('status').filter({ hasText: 'The curl command is copied.' }).waitFor();
        const curl = await page.evaluate(() =>
          (globalThis as unknown as BrowserGlobals).navigator.clipboard.readText(),
        );
        expect(curl).toContain('$API_KEY');
        expect(curl).not.toContain(apiKey);
        const { stdout } = await promisify(execFile)('bash', ['-c', curl], {
          env: { ...process.env, API_KEY: apiKey ?? '' },
          maxBuffer: 64 * 1024 * 1024,
        });
        const replayed = JSON.parse(stdout) as { known_subjects: { counts: Record<string, number> } };
        expect(replayed.known_subjects.counts).toEqual({ [profileId]: 1 });

        // An enhance of an uploaded photo with the profile as a candidate, run as a job.
        await page.getByLabel('Operation').selectOption('enhance');
        // Dropped on the zone rather than chosen: drag and drop takes files too.
        const dropped = await page.evaluateHandle(
          (base64) => {
            const { DataTransfer, File, atob } = globalThis as unknown as BrowserGlobals;
            const transfer = new DataTransfer();
            const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
            transfer.items.add(new File([bytes], 'portrait.jpg', { type: 'image/jpeg' }));
            return transfer;
          },
          (await subjectPhoto(6, 'jpeg')).toString('base64'),
        );
        await page
          .locator('.drop')
          .filter({ hasText: 'Image to enhance' })
          .dispatchEvent('drop', { dataTransfer: dropped });
        await page.getByText('uploaded', { exact: true }).waitFor();
        await page.getByLabel(`Use astronaut (${profileId})`).check();
        await page.getByLabel('Mode', { exact: true }).selectOption('async');
        expect(await page.locator('#estimate').textContent()).toContain('This request costs at least 0.12 USD');
        expect(await page.locator('#curl-code').textContent()).toContain(`"profile_ids":["${profileId}"]`);
        await page.getByRole('button', { name: 'Run', exact: true }).click();
        await subjects.filter({ hasText: `${profileId} × 1` }).waitFor({ timeout: 60_000 });
        await results.getByTestId('face-box').first().waitFor();
        await page.getByTestId('cost').filter({ hasText: '0.15 USD final' }).waitFor();
        const output = results.getByRole('img', { name: 'Output 1 of 1' });
        await until(() => output.evaluate((image: LoadedImage) => image.complete && image.naturalWidth > 0));
        await shoot(page, 'playground-enhance');

        // A refusal shows the API's own answer.
        await page.getByLabel('Operation').selectOption('generate');
        await page.getByLabel('Prompt', { exact: true }).fill('sandbox:moderation');
        await page.getByLabel('Mode', { exact: true }).selectOption('sync');
        await page.getByRole('button', { name: 'Run', exact: true }).click();
        await page.getByTestId('refusal').filter({ hasText: 'HTTP 400 · CONTENT_MODERATION' }).waitFor();
        await shoot(page, 'playground-refusal');
        // That refusal is the one failed request the page made (the browser logs it as an error too).
        const refused = (problem: string) => problem.includes('400') && !problem.includes('/portal/');
        expect(problems.filter(refused).length).toBeGreaterThan(0);
        problems.splice(0, problems.length, ...problems.filter((problem) => !refused(problem)));

        // 375 px wide: nothing wider than the screen.
        await page.setViewportSize({ width: 375, height: 812 });
        const fits = () =>
          page.evaluate(() => (globalThis as unknown as BrowserGlobals).document.documentElement.scrollWidth <= 375);
        expect(await fits()).toBe(true);
        await shoot(page, 'playground-375');
        await page.getByRole('link', { name: 'Profile studio', exact: true }).click();
        await page.getByLabel('Training photos (5 to 50)').setInputFiles(photos.slice(4));
        await page
          .getByTestId('photo')
          .filter({ hasText: 'shapes.jpg' })
          .locator('[data-code="no_face"]')
          .waitFor({ timeout: 60_000 });
        expect(await fits()).toBe(true);
        await shoot(page, 'studio-375');

        expect(elsewhere).toEqual([]);
        expect(problems).toEqual([]);
      } catch (error) {
        // What the page showed when it went wrong, and what it complained of.
        await shoot(page, 'studio-failure');
        throw new Error(
          `${(error as Error).message}\nproblems: ${problems.join('\n')}\nelsewhere: ${elsewhere.join(' ')}`,
        );
      } finally {
        await browser.close();
      }
    },
    240_000,
  );
});
