/**
 * A callback receiver, runnable as it is:
 *
 *   WEBHOOK_SECRET=whsec_… PORT=8080 npx tsx docs/examples/webhook-receiver.ts
 *
 * It reads the raw body (the signatures cover the bytes as sent, so verify before parsing), verifies it
 * with the client's verifyWebhook (Standard Webhooks when the callback carries its headers, else the
 * spec's X-Service-Signature), and answers 204, or 400 to a callback that does not verify. During a
 * secret rotation, give both secrets: WEBHOOK_SECRET=new,old. Callbacks are sent to https URLs only, so
 * in production put it behind TLS (a load balancer, or https.createServer with a certificate).
 */
import http from 'node:http';
import { verifyWebhook, WebhookVerificationError } from '../../clients/typescript/src';

const secrets = (process.env.WEBHOOK_SECRET ?? '').split(',').filter(Boolean);
if (secrets.length === 0)
  throw new Error('set WEBHOOK_SECRET to the webhook_signing_secret of GET /v2/service/webhook-secret');

export const receiver = (onJob: (job: { job_id: string; status: string }) => void, keys: readonly string[] = secrets) =>
  http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      try {
        const scheme = verifyWebhook(body, req.headers, keys);
        const job = JSON.parse(body.toString('utf8')) as { job_id: string; status: string };
        console.log(`job ${job.job_id} ${job.status} (verified by ${scheme})`);
        onJob(job);
        res.writeHead(204).end();
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        console.warn(`refused a callback: ${error.message}`);
        res.writeHead(400).end();
      }
    });
  });

if (require.main === module) {
  const port = Number(process.env.PORT ?? 8080);
  receiver(() => undefined).listen(port, () => console.log(`listening on :${port}`));
}
