/**
 * The Billing page in a browser (Debian's chromium, driven by playwright-core): a developer picks a preset
 * amount, pays on the (Stripe double's) hosted Checkout page, comes back to Billing, and sees the top-up
 * completed, the balance credited and the ledger line, because Stripe's signed webhook said so. A debt
 * left by a refund of money already spent shows as a banner. Screenshots under test-output/.
 */
import { services } from '../../bin/local-aws/services';
import { DynamoPortal } from '../../functions/adapters/dynamo/portal-repository';
import { invite } from '../../functions/domain/portal/portal';
import { newId } from '../../functions/domain/shared/ids';
import { browserIt as browserItFor, CHROMIUM, shoot } from '../support/browser';

import { useStripeRuntime } from '../support/stripe-runtime';

jest.setTimeout(120_000);

const browserIt = browserItFor('the billing browser test');

const world = useStripeRuntime({ TOP_UP_PRESETS_USD: '10,25,50' });

describe('the Billing page in a browser', () => {
  browserIt(
    'takes a developer from a preset amount through Checkout to a credited balance and its ledger line',
    async () => {
      const email = `billing-${Date.now()}@example.com`;
      const { token } = await invite(
        { portal: new DynamoPortal(services().table, newId), clock: Date.now },
        { email, creditMicros: 1_000_000 },
      );
      const { chromium } = await import('playwright-core');
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
      try {
        const page = await (await browser.newContext({ viewport: { width: 1280, height: 860 } })).newPage();
        const problems: string[] = [];
        page.on('pageerror', (error) => problems.push(error.message));
        page.on('console', (message) => {
          if (message.type() === 'error') problems.push(message.text());
        });

        await page.goto(`${world.runtime.url}/portal#/signup?invitation=${token}`);
        await page.getByLabel('E-mail (the invited address)').fill(email);
        await page.getByLabel('Password (at least 12 characters)').fill('a long enough passphrase');
        await page.getByRole('button', { name: 'Create account' }).click();
        await page.getByTestId('balance').filter({ hasText: '1.00 USD' }).waitFor();

        await page.getByRole('link', { name: 'Billing' }).click();
        await page.getByRole('button', { name: '25.00 USD' }).waitFor();
        expect(await page.getByRole('button', { name: /USD$/ }).allTextContents()).toEqual([
          '10.00 USD',
          '25.00 USD',
          '50.00 USD',
        ]);
        await shoot(page, 'billing');

        // To Stripe's (the double's) hosted page, on its own origin.
        await page.getByRole('button', { name: '25.00 USD' }).click();
        await page.waitForURL(`${world.stripe.url}/checkout/pay/**`);
        await page.getByRole('heading', { name: 'Pay 25.00 USD' }).waitFor();
        await shoot(page, 'billing-checkout');
        await page.getByRole('button', { name: 'Pay' }).click();

        // Back on Billing: the webhook has credited the balance before the redirect.
        await page.waitForURL(/\/portal#\/billing\?top_up=tup_[0-9a-z]+&checkout=returned$/);
        await page.getByTestId('return-notice').filter({ hasText: 'Payment received: 25.00 USD' }).waitFor();
        await page.getByTestId('balance').filter({ hasText: '26.00 USD' }).waitFor();
        await page.getByRole('cell', { name: 'completed' }).waitFor();
        await shoot(page, 'billing-returned');

        await page.getByRole('link', { name: 'Overview' }).click();
        const line = page.getByRole('row').filter({ hasText: /top-up tup_\w+ \(Stripe payment pi_test_\w+\)/ });
        await line.waitFor();
        expect(await line.textContent()).toMatch(/credit.*25\.00.*26\.00/);

        // Some of the 26.00 is spent with a key made here; then the payment is refunded whole and lost in a
        // dispute too. What is taken back never exceeds the 25.00 credited, so the owed part is what was spent
        // beyond the 1.00 of credit.
        await page.getByRole('link', { name: 'API keys' }).click();
        await page.getByLabel('Name').fill('billing test');
        await page.getByRole('button', { name: 'Create key' }).click();
        const apiKey = await page.locator('#new-key').inputValue();
        const generate = () =>
          world.runtime.call('POST', '/v2/service/generate', { apiKey, body: { prompt: 'a lighthouse at dawn' } });
        let spentMicros = 0;
        while (spentMicros <= 1_000_000) {
          expect((await generate()).status).toBe(200);
          const account = await world.runtime.call('GET', '/v2/service/account', { apiKey });
          spentMicros = 26_000_000 - ((await account.json()) as { balance: { micro_usd: number } }).balance.micro_usd;
        }
        const paymentIntent = [...world.stripe.sessions.values()].at(-1)?.payment_intent as string;
        await world.stripe.send(world.stripe.event('charge.refunded', world.stripe.refund(paymentIntent, 2500)));
        await world.stripe.send(
          world.stripe.event('charge.dispute.closed', world.stripe.dispute(paymentIntent, 'lost', 2500)),
        );
        const owed = ((spentMicros - 1_000_000) / 1_000_000).toFixed(2);
        await page.getByRole('link', { name: 'Billing' }).click();
        await page
          .getByTestId('debt-banner')
          .filter({ hasText: `owes ${owed} USD` })
          .waitFor();
        await page.getByTestId('balance').filter({ hasText: '0.00 USD' }).waitFor();
        await shoot(page, 'billing-debt');
        expect(problems).toEqual([]);
        expect(world.stripe.violations).toEqual([]);
      } finally {
        await browser.close();
      }
    },
  );
});
