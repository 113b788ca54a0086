/**
 * The synchronous budget, black box: past SYNC_BUDGET_SECONDS (1 s in this file, 600 s in service) an
 * image operation answers 504 TIMEOUT and the reservation is refunded. The sandbox prompt
 * `sandbox:slow=<seconds>` makes the engine slow; a URL that never answers makes the input slow.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestRuntime, type TestRuntime } from '../../support/runtime';
import { b64, balanceOf, COLOURS, expectError, flatImage } from './support';

const OPENING_MICROS = 1_000_000;

let runtime: TestRuntime;
let input: Buffer;

beforeAll(async () => {
  runtime = await startTestRuntime({ env: { SYNC_BUDGET_SECONDS: '1' } });
  input = await flatImage(64, 48, 'png', COLOURS.red);
});
afterAll(() => runtime.close());

const SLOW = 'sandbox:slow=5';
const slowBodies = () => ({
  edit: { prompt: SLOW, images: [b64(input)] },
  generate: { prompt: SLOW },
  enhance: { prompt: SLOW, image: b64(input) },
  remix: { prompt: SLOW, input_image: b64(input), reference_image: b64(input) },
});

describe('synchronous timeout', () => {
  it.each(['edit', 'generate', 'enhance', 'remix'] as const)(
    '%s past the budget answers 504 TIMEOUT and refunds',
    async (operation) => {
      const account = await runtime.newAccount(OPENING_MICROS);
      const response = await runtime.call('POST', `/v2/service/${operation}`, {
        apiKey: account.apiKey,
        body: slowBodies()[operation],
      });
      const body = await expectError(response, 504, 'TIMEOUT');
      expect(body.detail).toContain('async');
      expect(await balanceOf(account.accountId)).toBe(OPENING_MICROS);
    },
  );

  it('the budget covers fetching the inputs: a URL that never answers gives 504 with nothing charged', async () => {
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      const account = await runtime.newAccount(OPENING_MICROS);
      const response = await runtime.call('POST', '/v2/service/edit', {
        apiKey: account.apiKey,
        body: { prompt: 'brighter', images: [`http://127.0.0.1:${port}/never.png`] },
      });
      await expectError(response, 504, 'TIMEOUT');
      expect(await balanceOf(account.accountId)).toBe(OPENING_MICROS);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
