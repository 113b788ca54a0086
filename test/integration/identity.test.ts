/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * Identity you can trust, end to end through the provider doubles, which draw faces as a model would
 * (test/support/providers/face-render.ts: another photo of the person, or the face redrawn; never the
 * crop): who is there decides what is sent, every output says who it kept, `identity_check: "retry"`
 * makes again what drifted, and what the caller pays follows what is delivered. The doubles record any
 * `[[` or `prf_` they are sent as a violation, checked after every test.
 */
import { services } from '../../bin/local-aws/services';
import { PINNED_PRICES } from '../../functions/domain/catalog/catalog';
import { facePhoto, photoAround, seedFaceProfile } from '../support/faces';
import { operationCaller, pollJob, useProviderRuntime } from '../support/providers/e2e';
import { b64, balanceOf, expectOk } from './images/support';

const OPENING_MICROS = 10_000_000;
jest.setTimeout(180_000);

const world = useProviderRuntime();

const call = operationCaller(world);
const spent = async (accountId: string) => OPENING_MICROS - (await balanceOf(accountId));

interface IdentityAnswer {
  known_subjects: { counts: Record<string, number> };
  recognized_faces: { output_index: number; profile_id: string; similarity: number; billed: boolean }[];
  identity?: {
    expected: string[];
    outputs: {
      output_index: number;
      kept: string[];
      missing: string[];
      attempts: number;
      carried_by?: Record<string, string>;
    }[];
    retried_outputs: number;
  };
}

/** The Gemini double's inline images of its `index`th request. */
const geminiImages = (index: number): Buffer[] => {
  const body = world.doubles.gemini.received[index]?.body as {
    contents: { parts: ({ text: string } | { inlineData: { data: string } })[] }[];
  };
  return body.contents.flatMap((content) =>
    content.parts.flatMap((part) => ('inlineData' in part ? [Buffer.from(part.inlineData.data, 'base64')] : [])),
  );
};
const geminiText = (index: number): string => JSON.stringify(world.doubles.gemini.received[index]?.body);

const referenceCrop = async (profileId: string, accountId: string) =>
  (await services().objects.get(`profiles/${accountId}/${profileId}/reference-0.jpg`))?.body;

describe('who is there decides what is sent', () => {
  it('an enhance of a photo of A with profile_ids [A, B] sends only A, recognises A, and bills A once', async () => {
    const account = await world.runtime.newAccount();
    const astronaut = facePhoto('astronaut.jpg');
    const a = await seedFaceProfile(account.accountId, astronaut);
    const b = await seedFaceProfile(account.accountId, facePhoto('man-b.jpg'));
    const photo = await photoAround(astronaut, 0);
    const before = world.doubles.gemini.received.length;

    const answer = (await expectOk(
      await call('enhance', account.apiKey, { image: b64(photo), profile_ids: [b.profileId, a.profileId] }),
    )) as unknown as IdentityAnswer;

    const sent = geminiImages(before);
    expect(sent).toHaveLength(2);
    expect(sent[0]?.equals(photo)).toBe(true);
    expect(sent[1]?.equals((await referenceCrop(a.profileId, account.accountId)) as Buffer)).toBe(true);
    expect(geminiText(before)).not.toMatch(/prf_|\[\[/);
    expect(answer.known_subjects.counts).toEqual({ [a.profileId]: 1 });
    expect(answer.identity).toEqual({
      expected: [a.profileId],
      outputs: [
        { output_index: 0, kept: [a.profileId], missing: [], attempts: 1, carried_by: { [a.profileId]: 'references' } },
      ],
      retried_outputs: 0,
    });
    const [face] = answer.recognized_faces;
    expect(face).toMatchObject({ output_index: 0, profile_id: a.profileId, billed: true });
    expect(face?.similarity).toBeGreaterThanOrEqual(0.7);
    expect(face?.similarity).toBeLessThanOrEqual(1);
    expect(await spent(account.accountId)).toBe(PINNED_PRICES.perImageWithProfileMicros);
  });

  it('an enhance of a photo of someone else sends the candidate nothing, and bills no surcharge', async () => {
    const account = await world.runtime.newAccount();
    const a = await seedFaceProfile(account.accountId, facePhoto('astronaut.jpg'));
    const photo = await photoAround(facePhoto('man-b.jpg'), 0);
    const before = world.doubles.gemini.received.length;

    const answer = (await expectOk(
      await call('enhance', account.apiKey, { image: b64(photo), profile_ids: [a.profileId] }),
    )) as unknown as IdentityAnswer;

    expect(geminiImages(before)).toHaveLength(1);
    expect(answer.known_subjects.counts).toEqual({});
    expect(answer.identity).toEqual({
      expected: [],
      outputs: [{ output_index: 0, kept: [], missing: [], attempts: 1 }],
      retried_outputs: 0,
    });
    expect(await spent(account.accountId)).toBe(PINNED_PRICES.perImageMicros);
  });
});

describe('several subjects', () => {
  it('a generate naming two people on fal recognises each once per output, neither confused', async () => {
    const account = await world.runtime.newAccount();
    const a = await seedFaceProfile(account.accountId, facePhoto('astronaut.jpg'));
    const b = await seedFaceProfile(account.accountId, facePhoto('man-b.jpg'));

    const answer = (await expectOk(
      await call('generate', account.apiKey, {
        prompt: `[[${a.profileId}]] and [[${b.profileId}]] on a bench`,
        base_model: 'base-a-2',
        num_output_images: 2,
        identity_check: 'retry',
      }),
    )) as unknown as IdentityAnswer;

    expect(answer.identity?.expected).toEqual([a.profileId, b.profileId]);
    // A drawn face is not always recognised at 0.70 (bench: identity.renders.*): retry until both are kept.
    for (const output of answer.identity?.outputs ?? []) expect(output.kept).toEqual([a.profileId, b.profileId]);
    expect(answer.known_subjects.counts).toEqual({ [a.profileId]: 2, [b.profileId]: 2 });
    for (const index of [0, 1]) {
      const ids = answer.recognized_faces.filter((face) => face.output_index === index).map((face) => face.profile_id);
      expect(ids.sort()).toEqual([a.profileId, b.profileId].sort());
    }
  });

  it('an edit of a group photo with three profiles keeps and bills each of them', async () => {
    const account = await world.runtime.newAccount();
    const group = facePhoto('three-men.jpg');
    const men = [];
    for (const index of [0, 1, 2]) men.push(await seedFaceProfile(account.accountId, group, [index]));
    const ids = men.map((man) => man.profileId);

    const answer = (await expectOk(
      await call('edit', account.apiKey, {
        images: [b64(group)],
        prompt: 'the same people at a picnic',
        profile_ids: ids,
        base_model: 'base-b-2',
        identity_check: 'retry',
      }),
    )) as unknown as IdentityAnswer;

    expect(answer.identity?.expected).toEqual(ids);
    expect(answer.identity?.outputs).toEqual([
      {
        output_index: 0,
        kept: ids,
        missing: [],
        attempts: expect.any(Number),
        carried_by: Object.fromEntries(ids.map((id) => [id, 'references'])),
      },
    ]);
    expect(answer.known_subjects.counts).toEqual(Object.fromEntries(ids.map((id) => [id, 1])));
    // None confused: each face recognised for one man, each man once.
    expect(answer.recognized_faces.map((face) => face.profile_id).sort()).toEqual([...ids].sort());
  });
});

describe('identity_check', () => {
  it('retry makes again an output that drifted, at most twice, charges each output made again and no surcharge when it never kept the subject', async () => {
    const account = await world.runtime.newAccount();
    const a = await seedFaceProfile(account.accountId, facePhoto('astronaut.jpg'));
    const before = world.doubles.fal.submissions.length;

    const answer = (await expectOk(
      await call('generate', account.apiKey, {
        prompt: `[[${a.profileId}]] in a garden [double:drift]`,
        base_model: 'base-a-2',
        identity_check: 'retry',
      }),
    )) as unknown as IdentityAnswer;

    expect(answer.identity).toEqual({
      expected: [a.profileId],
      outputs: [
        { output_index: 0, kept: [], missing: [a.profileId], attempts: 3, carried_by: { [a.profileId]: 'references' } },
      ],
      retried_outputs: 2,
    });
    expect(answer.known_subjects.counts).toEqual({});
    expect(world.doubles.fal.submissions.length - before).toBe(3);
    // Each output made again at base-a-2's 1K price ($0.04), no surcharge: three outputs made, three paid.
    expect(await spent(account.accountId)).toBe(3 * 40_000);
    // The retries' provider cost stays on the job for the operator; the answer carries none of it.
    expect(JSON.stringify(answer)).not.toMatch(/retries|provider_cost|providerCost/i);
  });

  it('a cancel during an identity retry leaves no request running at the fal double, and refunds', async () => {
    const account = await world.runtime.newAccount();
    const a = await seedFaceProfile(account.accountId, facePhoto('astronaut.jpg'));
    const before = world.doubles.fal.submissions.length;
    // The first attempt finishes at once and draws a stranger; the retry would run for two minutes.
    world.doubles.fal.holdNext({ ms: 0 });
    world.doubles.fal.holdNext({ ms: 120_000 });
    const submitted = await call('generate', account.apiKey, {
      prompt: `[[${a.profileId}]] by a lake [double:drift]`,
      base_model: 'base-a-2',
      identity_check: 'retry',
      async: true,
      response_mode: 'urls',
    });
    expect(submitted.status).toBe(202);
    const { job_id: jobId } = (await submitted.json()) as { job_id: string };
    await waitUntil(() => world.doubles.fal.submissions.length - before >= 2);
    const retry = world.doubles.fal.submissions[before + 1]?.requestId ?? '';
    expect(world.doubles.fal.running()).toContain(retry);

    const canceled = await world.runtime.call('POST', `/v2/service/jobs/${jobId}/cancel`, { apiKey: account.apiKey });
    expect(canceled.status).toBe(200);
    expect((await pollJob(world.runtime, account.apiKey, jobId)).error?.code).toBe('CANCELED');
    await waitUntil(() => !world.doubles.fal.running().includes(retry));
    expect(world.doubles.fal.cancelled()).toContain(retry);
    expect(world.doubles.fal.submissions.length - before).toBe(2);
    expect(await spent(account.accountId)).toBe(0);
  });

  it('off answers no identity block; any other value is a 422 at body.identity_check', async () => {
    const account = await world.runtime.newAccount();
    const off = (await expectOk(
      await call('generate', account.apiKey, { prompt: 'a lighthouse', identity_check: 'off' }),
    )) as unknown as IdentityAnswer;
    expect(off).not.toHaveProperty('identity');
    for (const value of ['sometimes', 42, null]) {
      const response = await call('generate', account.apiKey, { prompt: 'a lighthouse', identity_check: value });
      expect(response.status).toBe(422);
      const body = (await response.json()) as { detail: { loc: unknown[] }[] };
      expect(body.detail.map((detail) => detail.loc)).toEqual([['body', 'identity_check']]);
    }
  });

  it('an async job keeps the block on its result', async () => {
    const account = await world.runtime.newAccount();
    const a = await seedFaceProfile(account.accountId, facePhoto('astronaut.jpg'));
    const submitted = await call('generate', account.apiKey, {
      prompt: `[[${a.profileId}]] reading`,
      base_model: 'base-b-2',
      async: true,
    });
    expect(submitted.status).toBe(202);
    const { job_id } = (await submitted.json()) as { job_id: string };
    const job = await pollJob(world.runtime, account.apiKey, job_id, undefined, { timeoutMs: 60_000 });
    const result = job.result as unknown as IdentityAnswer;
    expect(job.status).toBe('succeeded');
    expect(result.identity).toEqual({
      expected: [a.profileId],
      outputs: [
        { output_index: 0, kept: [a.profileId], missing: [], attempts: 1, carried_by: { [a.profileId]: 'references' } },
      ],
      retried_outputs: 0,
    });
  });
});

const waitUntil = async (condition: () => boolean, timeoutMs = 30_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
