/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * Issue 31, items 5 to 8, through the provider doubles in both runtimes: inputs labelled as what their
 * bytes are (HEIC, large PNG and WebP, EXIF-rotated, on each provider), a revoked key then a new one, fal's
 * output URLs confined to its media hosts (anywhere else fails the job, refunded), and the copies fal is
 * shown scoped by account and profile or job, a profile's deleted with it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { services } from '../../bin/local-aws/services';
import { sharedInputKey, sharedJobPrefix, sharedProfilePrefix } from '../../functions/adapters/s3/shared-inputs';
import { facePhoto, seedFaceProfile } from '../support/faces';
import { newestJob, pollJob, useProviderRuntime } from '../support/providers/e2e';
import { b64, balanceOf, expectOk } from './images/support';

const HEIC = readFileSync(join(__dirname, '../fixtures/images/small-64x48.heic'));
const OPENING_MICROS = 10_000_000;
const assets = process.env.TEST_RUNTIME === 'assets';

const world = useProviderRuntime();

// Four synchronous edits per provider, each drawn by a double with the face analyser.
jest.setTimeout(180_000);

const call = (operation: string, apiKey: string, body: unknown) =>
  world.runtime.call('POST', `/v2/service/${operation}`, { apiKey, body });

const inputs = async (): Promise<Record<string, Buffer>> => ({
  heic: HEIC,
  'large png': await sharp({ create: { width: 4400, height: 160, channels: 3, background: '#4477aa' } })
    .png()
    .toBuffer(),
  'large webp': await sharp({ create: { width: 4400, height: 160, channels: 3, background: '#77aa44' } })
    .webp()
    .toBuffer(),
  'exif-rotated jpeg': await sharp({ create: { width: 80, height: 60, channels: 3, background: '#aa7744' } })
    .jpeg()
    .withMetadata({ orientation: 6 })
    .toBuffer(),
});

describe('inputs labelled as what they are', () => {
  it.each(['base-c-2', 'base-b-2', 'base-a-2'])(
    '%s: a HEIC, a large PNG, a large WebP and an EXIF-rotated JPEG reach the provider as JPEG',
    async (model) => {
      const account = await world.runtime.newAccount(OPENING_MICROS);
      for (const [name, bytes] of Object.entries(await inputs())) {
        const before = {
          gemini: world.doubles.gemini.received.length,
          openai: world.doubles.openai.received.length,
          fal: world.doubles.fal.submissions.length,
        };
        const answer = await expectOk(
          await call('edit', account.apiKey, { prompt: `warmer (${name})`, base_model: model, images: [b64(bytes)] }),
        );
        expect(answer.images).toHaveLength(1);
        if (model === 'base-c-2') {
          const sent = world.doubles.gemini.received.slice(before.gemini);
          const body = sent[0]?.body as { contents: { parts: { inlineData?: { mimeType: string } }[] }[] };
          expect(
            body.contents[0]?.parts.flatMap((part) => (part.inlineData ? [part.inlineData.mimeType] : [])),
          ).toEqual(['image/jpeg']);
        } else if (model === 'base-b-2') {
          const sent = world.doubles.openai.received.slice(before.openai);
          expect(sent[0]?.files.map(({ filename, contentType }) => ({ filename, contentType }))).toEqual([
            { filename: 'input-1.jpg', contentType: 'image/jpeg' },
          ]);
        } else {
          const [submission] = world.doubles.fal.submissions.slice(before.fal);
          const [url] = (submission?.input.image_urls ?? []) as string[];
          const served = await fetch(url ?? '');
          expect(served.headers.get('content-type')).toBe('image/jpeg');
          expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).format).toBe('jpeg');
        }
      }
    },
  );
});

describe('keys refreshed', () => {
  // npm run start:assets runs each function in its own process, whose environment is fixed when it starts
  // (as a Lambda's is): a key given by value changes only with a new execution environment there, so this
  // path (the setting changed while the service runs) is the in-process runtime's. On AWS the key is a
  // Secrets Manager secret, read again the same way (test/unit/adapters/engine/providers/keys-and-urls.test.ts).
  (assets ? it.skip : it)('a revoked OpenAI key, then a new one: the next call works without a restart', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const body = { prompt: 'a kite', base_model: 'base-b-2' };
    await expectOk(await call('generate', account.apiKey, body));
    const newKey = 'sk-double-rotated';
    const oldKey = world.doubles.openai.apiKey;
    world.doubles.openai.revokeKey(newKey);
    process.env.OPENAI_API_KEY = newKey; // the operator puts the new key in
    try {
      const refusedBefore = world.doubles.openai.counters.refusedKeys;
      await expectOk(await call('generate', account.apiKey, body));
      expect(world.doubles.openai.counters.refusedKeys - refusedBefore).toBe(1);
      expect(world.doubles.openai.received.at(-1)?.headers.authorization).toBe(`Bearer ${newKey}`);
    } finally {
      world.doubles.openai.revokeKey(oldKey);
      process.env.OPENAI_API_KEY = oldKey;
    }
  });
});

describe('shared inputs scoped and deleted', () => {
  it("fal is shown a profile's crop under the account and profile, and the job's input under the job; deleting the profile deletes its copy", async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const profile = await seedFaceProfile(account.accountId, facePhoto('astronaut.jpg'));
    const cropKey = profile.face?.referenceKeys[0] ?? '';
    const crop = (await services().objects.get(cropKey))?.body;
    if (!crop) throw new Error('no crop');
    const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#336699' } })
      .jpeg()
      .toBuffer();
    await expectOk(
      await call('edit', account.apiKey, {
        prompt: `[[${profile.profileId}]] at the beach`,
        base_model: 'base-a-2',
        images: [b64(photo)],
      }),
    );
    const job = await newestJob(world.runtime, account.apiKey);
    const profileCopy = sharedInputKey(
      { accountId: account.accountId, jobId: job.job_id, profileId: profile.profileId },
      crop,
    );
    const jobCopy = sharedInputKey({ accountId: account.accountId, jobId: job.job_id }, photo);
    expect(profileCopy.startsWith(sharedProfilePrefix(account.accountId, profile.profileId))).toBe(true);
    expect(jobCopy.startsWith(sharedJobPrefix(account.accountId, job.job_id))).toBe(true);
    expect(await services().objects.head(profileCopy)).toBeDefined();
    expect(await services().objects.head(jobCopy)).toBeDefined();

    const deleted = await world.runtime.call('DELETE', `/v2/service/profiles/${profile.profileId}`, {
      apiKey: account.apiKey,
    });
    expect(deleted.status).toBe(200);
    expect(await services().objects.head(profileCopy)).toBeUndefined();
    expect(await services().objects.head(jobCopy)).toBeDefined();
  });
});

describe("fal's output URLs", () => {
  it('a result pointing outside fal media hosts fails the job, refunded, and nothing is fetched there', async () => {
    const account = await world.runtime.newAccount(OPENING_MICROS);
    const filesBefore = world.doubles.fal.counters.files;
    world.doubles.fal.answerFilesAt('http://169.254.169.254/latest');
    try {
      const submitted = await call('generate', account.apiKey, {
        prompt: 'a lighthouse',
        base_model: 'base-a-2',
        async: true,
      });
      expect(submitted.status).toBe(202);
      const { job_id: jobId } = (await submitted.json()) as { job_id: string };
      const job = await pollJob(world.runtime, account.apiKey, jobId, undefined, { timeoutMs: 60_000 });
      expect(job.status).toBe('failed');
      expect(job.error?.code).toBe('INTERNAL_ERROR');
      expect(await balanceOf(account.accountId)).toBe(OPENING_MICROS);
      expect(world.doubles.fal.counters.files).toBe(filesBefore);
    } finally {
      world.doubles.fal.answerFilesAt(undefined);
    }
  });
});
