import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

process.env.WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { receiver } =
  require('../../docs/examples/webhook-receiver') as typeof import('../../docs/examples/webhook-receiver');

const body = '{"job_id":"job_1","status":"succeeded"}';

it('the example receiver takes a signed callback and refuses a forged one', async () => {
  jest.spyOn(console, 'log').mockImplementation(() => undefined);
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const jobs: unknown[] = [];
  const server = receiver((job) => jobs.push(job)).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  try {
    const at = new Date();
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(process.env.WEBHOOK_SECRET!).sign('msg_1', at, body),
    };
    expect((await fetch(url, { method: 'POST', headers, body })).status).toBe(204);
    expect((await fetch(url, { method: 'POST', headers, body: body.replace('succeeded', 'failed') })).status).toBe(400);
    expect(jobs).toEqual([{ job_id: 'job_1', status: 'succeeded' }]);
  } finally {
    server.close();
  }
});
