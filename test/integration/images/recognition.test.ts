/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * Recognition after the engine, black box on real faces (test/fixtures/faces/): READY profiles seeded as a
 * training of those faces leaves them (template and reference crop), the sandbox engine placing the
 * reference face of each `[[id]]`, and `known_subjects` and the price following what the face analyser
 * finds in the outputs, not what the request names.
 */
import { findBaseModel, PINNED_PRICES } from '../../../functions/domain/catalog/catalog';
import { facePhoto, facesIn, photoAround, seedFaceProfile } from '../../support/faces';
import { startPhotoServer, subjectPhoto } from '../../support/photos';
import { startTestRuntime, type TestRuntime } from '../../support/runtime';
import { b64, balanceOf, decode, expectOk, type ImageAnswer, type RecognizedFace } from './support';

const OPENING_MICROS = 10_000_000;
const SURCHARGE_MICROS = findBaseModel('base-c-2')?.identitySurchargeMicros ?? Number.NaN;

let runtime: TestRuntime;
let photos: Awaited<ReturnType<typeof startPhotoServer>>;
beforeAll(async () => {
  photos = await startPhotoServer();
  runtime = await startTestRuntime();
});
afterAll(async () => {
  await runtime.close();
  await photos.close();
});

const call = (operation: string, apiKey: string, body: unknown) =>
  runtime.call('POST', `/v2/service/${operation}`, { apiKey, body });

/**
 * Each recognised face outlines a face the analyser finds in that output, in whole pixels inside it:
 * the same box, rounded (a box reaching past the top or left edge starts at 0).
 */
const expectOutlines = async (faces: RecognizedFace[], outputs: Buffer[]) => {
  for (const { output_index: index, box } of faces) {
    const { width = 0, height = 0 } = await decode(outputs[index]!);
    for (const value of Object.values(box)) expect(Number.isInteger(value)).toBe(true);
    expect(box.x + box.width).toBeLessThanOrEqual(width + 1);
    expect(box.y + box.height).toBeLessThanOrEqual(height + 1);
    const found = (await facesIn(outputs[index]!)).map((face) => face.box);
    expect(
      found.some(
        (face) =>
          Math.abs(Math.max(0, face.x) - box.x) <= 1 &&
          Math.abs(Math.max(0, face.y) - box.y) <= 1 &&
          Math.abs(face.x + face.width - (box.x + box.width)) <= 1 &&
          Math.abs(face.y + face.height - (box.y + box.height)) <= 1,
      ),
    ).toBe(true);
  }
};

/** A recognition as answered now: how close the face is to the template, and whether it is billed. */
type ScoredFace = RecognizedFace & { similarity: number; billed: boolean };

/** The identity report of an answer. */
interface Identity {
  expected: string[];
  outputs: {
    output_index: number;
    kept: string[];
    missing: string[];
    attempts: number;
    carried_by?: Record<string, string>;
  }[];
  retried_outputs: number;
}

/** An answer with the fields recognition adds. */
type Answer = Omit<ImageAnswer, 'recognized_faces'> & { recognized_faces: ScoredFace[]; identity: Identity };
const scored = (answer: ImageAnswer): Answer => answer as unknown as Answer;

/** A person's recognition, billed, whose similarity is a cosine at or above the match threshold. */
const billedFace = (outputIndex: number, profileId: string) => ({
  output_index: outputIndex,
  profile_id: profileId,
  box: expect.any(Object),
  similarity: expect.any(Number),
  billed: true,
});
const expectSimilarities = (faces: ScoredFace[]) => {
  for (const { similarity } of faces) {
    expect(similarity).toBeGreaterThanOrEqual(0.7);
    expect(similarity).toBeLessThanOrEqual(1);
    expect(Math.round(similarity * 1000) / 1000).toBe(similarity);
  }
};

/** The identity report of one output per entry of `kept`, each made once, expecting `expected`. */
const identityOf = (expected: string[], kept: string[][]): Identity => ({
  expected,
  outputs: kept.map((ids, outputIndex) => ({
    output_index: outputIndex,
    kept: ids,
    missing: expected.filter((id) => !ids.includes(id)),
    attempts: 1,
    // The sandbox engine takes no LoRA: every expected subject by its references.
    ...(expected.length > 0 && { carried_by: Object.fromEntries(expected.map((id) => [id, 'references'])) }),
  })),
  retried_outputs: 0,
});

/** What a call cost the account. */
const spent = async (accountId: string) => OPENING_MICROS - (await balanceOf(accountId));

/** What the same call costs with no one recognised, on a fresh account. */
const plainCost = async (operation: string, body: Record<string, unknown>) => {
  const account = await runtime.newAccount(OPENING_MICROS);
  await expectOk(await call(operation, account.apiKey, body));
  return spent(account.accountId);
};

describe('generate with [[id]] in the sandbox', () => {
  it('places the profile’s face, recognises it once, and bills the identity surcharge once', async () => {
    const account = await runtime.newAccount(OPENING_MICROS);
    const yale = await seedFaceProfile(account.accountId, facePhoto('yale-lightings.jpg'), [0, 1]);
    const body = { prompt: `[[${yale.profileId}]] on a boat`, resolution: '2K', base_model: 'base-c-2' };
    const answer = scored(await expectOk(await call('generate', account.apiKey, body)));
    expect(answer.known_subjects.counts).toEqual({ [yale.profileId]: 1 });
    expect(answer.recognized_faces).toEqual([billedFace(0, yale.profileId)]);
    expectSimilarities(answer.recognized_faces);
    expect(answer.identity).toEqual(identityOf([yale.profileId], [[yale.profileId]]));
    const output = Buffer.from(answer.images[0], 'base64');
    expect(await decode(output)).toMatchObject({ width: 2048, height: 2048 });
    expect((await facesIn(output)).filter((face) => face.kind === 'person')).toHaveLength(1);
    const withoutIdentity = await plainCost('generate', { ...body, prompt: 'someone on a boat' });
    expect(await spent(account.accountId)).toBe(withoutIdentity + SURCHARGE_MICROS);
  });

  it('counts two trained people named in one prompt, each once', async () => {
    const account = await runtime.newAccount(OPENING_MICROS);
    const yale = await seedFaceProfile(account.accountId, facePhoto('yale-lightings.jpg'), [0, 1]);
    const astronaut = await seedFaceProfile(account.accountId, facePhoto('astronaut.jpg'));
    const answer = scored(
      await expectOk(
        await call('generate', account.apiKey, {
          prompt: `[[${yale.profileId}]] and [[${astronaut.profileId}]] on the moon`,
          resolution: '2K',
          base_model: 'base-c-2',
          aspect_ratio: '16:9',
        }),
      ),
    );
    expect(answer.known_subjects.counts).toEqual({ [yale.profileId]: 1, [astronaut.profileId]: 1 });
    // One outline per recognition counted, each on a face the output shows.
    expect(answer.recognized_faces.map((face) => [face.output_index, face.profile_id]).sort()).toEqual(
      [
        [0, yale.profileId],
        [0, astronaut.profileId],
      ].sort(),
    );
    expect(answer.recognized_faces).toEqual(
      expect.arrayContaining([billedFace(0, yale.profileId), billedFace(0, astronaut.profileId)]),
    );
    expectSimilarities(answer.recognized_faces);
    expect(answer.identity).toEqual(
      identityOf([yale.profileId, astronaut.profileId], [[yale.profileId, astronaut.profileId]]),
    );
    await expectOutlines(answer.recognized_faces, [Buffer.from(answer.images[0]!, 'base64')]);
  });
});

describe('enhance keeps the input’s faces', () => {
  it('recognises a profile in a different photo of the same person, counted once, at 0.15', async () => {
    const account = await runtime.newAccount(OPENING_MICROS);
    const yale = await seedFaceProfile(account.accountId, facePhoto('yale-lightings.jpg'), [0, 1]);
    const another = await photoAround(facePhoto('yale-lightings.jpg'), 2);
    const answer = scored(
      await expectOk(await call('enhance', account.apiKey, { image: b64(another), profile_ids: [yale.profileId] })),
    );
    expect(answer.known_subjects.counts).toEqual({ [yale.profileId]: 1 });
    expect(answer.recognized_faces).toEqual([billedFace(0, yale.profileId)]);
    expectSimilarities(answer.recognized_faces);
    expect(answer.identity).toEqual(identityOf([yale.profileId], [[yale.profileId]]));
    expect(await spent(account.accountId)).toBe(PINNED_PRICES.perImageWithProfileMicros);
  });

  it('does not count a referenced profile whose face is not in the output', async () => {
    const account = await runtime.newAccount(OPENING_MICROS);
    const astronaut = await seedFaceProfile(account.accountId, facePhoto('astronaut.jpg'));
    const body = { image: b64(facePhoto('man-b.jpg')), profile_ids: [astronaut.profileId], prompt: 'sharper' };
    const answer = scored(await expectOk(await call('enhance', account.apiKey, body)));
    expect(answer.known_subjects.counts).toEqual({});
    expect(answer.recognized_faces).toEqual([]);
    // Absent from the input, the profile is not expected: nothing of it was sent, nothing is missing.
    expect(answer.identity).toEqual(identityOf([], [[]]));
  });

  it('counts no one in a photo of a different person or of a cat, at 0.12', async () => {
    const account = await runtime.newAccount(OPENING_MICROS);
    const yale = await seedFaceProfile(account.accountId, facePhoto('yale-lightings.jpg'), [0, 1]);
    for (const photo of ['man-a.jpg', 'cat-chelsea.jpg']) {
      const answer = await expectOk(
        await call('enhance', account.apiKey, { image: b64(facePhoto(photo)), profile_ids: [yale.profileId] }),
      );
      expect([photo, answer.known_subjects.counts]).toEqual([photo, {}]);
      expect([photo, scored(answer).identity]).toEqual([photo, identityOf([], [[]])]);
    }
    expect(await spent(account.accountId)).toBe(2 * PINNED_PRICES.perImageMicros);
  });

  it('remix keeps the face through its colour transfer', async () => {
    const account = await runtime.newAccount(OPENING_MICROS);
    const astronaut = await seedFaceProfile(account.accountId, facePhoto('astronaut.jpg'));
    const answer = await expectOk(
      await call('remix', account.apiKey, {
        input_image: b64(facePhoto('astronaut.jpg')),
        reference_image: b64(facePhoto('dog-and-cats.jpg')),
        profile_ids: [astronaut.profileId],
      }),
    );
    expect(answer.known_subjects.counts).toEqual({ [astronaut.profileId]: 1 });
    expect(scored(answer).recognized_faces).toEqual([billedFace(0, astronaut.profileId)]);
    expectSimilarities(scored(answer).recognized_faces);
    expect(scored(answer).identity).toEqual(identityOf([astronaut.profileId], [[astronaut.profileId]]));
  });
});

describe('an asynchronous job: recognition in the workflow’s RunEngine step', () => {
  it('counts the profile in a different photo of the same person, and settles at 0.15', async () => {
    const account = await runtime.newAccount(OPENING_MICROS);
    const yale = await seedFaceProfile(account.accountId, facePhoto('yale-lightings.jpg'), [0, 1]);
    const another = await photoAround(facePhoto('yale-lightings.jpg'), 2);
    const submitted = await call('enhance', account.apiKey, {
      image: b64(another),
      profile_ids: [yale.profileId],
      async: true,
    });
    expect(submitted.status).toBe(202);
    const { job_id: jobId, poll_url: pollUrl } = (await submitted.json()) as { job_id: string; poll_url: string };
    await runtime.stepFunctions.waitForExecution(jobId);
    const polled = (await (await runtime.call('GET', pollUrl, { apiKey: account.apiKey })).json()) as {
      status: string;
      result?: {
        known_subjects: { counts: Record<string, number> };
        recognized_faces: ScoredFace[];
        identity: Identity;
        download_urls: string[];
      };
    };
    expect(polled).toMatchObject({
      status: 'succeeded',
      result: { known_subjects: { counts: { [yale.profileId]: 1 } } },
    });
    // Kept on the job with the counts: the poll outlines the face in the stored output.
    expect(polled.result!.recognized_faces).toEqual([billedFace(0, yale.profileId)]);
    expectSimilarities(polled.result!.recognized_faces);
    expect(polled.result!.identity).toEqual(identityOf([yale.profileId], [[yale.profileId]]));
    const output = Buffer.from(await (await fetch(polled.result!.download_urls[0]!)).arrayBuffer());
    await expectOutlines(polled.result!.recognized_faces, [output]);
    expect(await spent(account.accountId)).toBe(PINNED_PRICES.perImageWithProfileMicros);
  });
});

describe('train, generate, recognise, bill: end to end on real faces', () => {
  it('a profile trained through the API is placed by the sandbox from its reference crop and recognised once', async () => {
    const account = await runtime.newAccount(OPENING_MICROS);
    const urls = await Promise.all(
      [0, 1, 2, 3, 4].map(async (index) => photos.add(`astronaut-${index}.png`, await subjectPhoto(index))),
    );
    const added = await runtime.call('POST', '/v2/service/profiles/add', {
      apiKey: account.apiKey,
      body: { image_urls: urls, training_tier: 'fast' },
    });
    expect(added.status).toBe(200);
    const { profile_id: profileId } = (await added.json()) as { profile_id: string };
    let status = '';
    for (let attempt = 0; attempt < 600 && status !== 'READY' && status !== 'ERROR'; attempt += 1) {
      const answer = await runtime.call('GET', `/v2/service/profiles/${profileId}/status`, { apiKey: account.apiKey });
      ({ status } = (await answer.json()) as { status: string });
      if (status !== 'READY') await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(status).toBe('READY');
    const answer = scored(
      await expectOk(await call('generate', account.apiKey, { prompt: `[[${profileId}]] waving`, resolution: '2K' })),
    );
    expect(answer.known_subjects.counts).toEqual({ [profileId]: 1 });
    expect(answer.recognized_faces).toEqual([billedFace(0, profileId)]);
    expectSimilarities(answer.recognized_faces);
    expect(answer.identity).toEqual(identityOf([profileId], [[profileId]]));
  });
});
