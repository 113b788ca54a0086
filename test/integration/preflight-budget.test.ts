/**
 * @jest-environment ./test/faces/onnx-environment.js
 */
/**
 * The preflight within API Gateway's 29 s, black box: photos it cannot reach within its budget (25 s; 2 s
 * here, PREFLIGHT_BUDGET_SECONDS) are reported `not_checked`, the answer a 200 at the deadline, never a
 * 504, and not `accepted`; the photos it did reach are checked as usual.
 */
import { startPhotoServer, subjectPhoto } from '../support/photos';
import { startTestRuntime, type TestRuntime } from '../support/runtime';

const BUDGET_SECONDS = 2;

let runtime: TestRuntime;
let photos: Awaited<ReturnType<typeof startPhotoServer>>;
/** Answers each photo only after the budget has long run out. */
let slow: Awaited<ReturnType<typeof startPhotoServer>>;

beforeAll(async () => {
  photos = await startPhotoServer();
  slow = await startPhotoServer({ delayMs: 6_000 });
  runtime = await startTestRuntime({ env: { PREFLIGHT_BUDGET_SECONDS: String(BUDGET_SECONDS) } });
});
afterAll(async () => {
  await runtime.close();
  await photos.close();
  await slow.close();
});

interface Report {
  accepted: boolean;
  problems: string[];
  photos: Array<{ index: number; status: string; fetched: boolean; error: string | null; face: unknown }>;
}

describe('the preflight within its budget', () => {
  it('answers at its deadline, with the photos it did not reach not_checked', async () => {
    const account = await runtime.newAccount();
    const prompt: string[] = [];
    for (let index = 0; index < 4; index += 1)
      prompt.push(photos.add(`p${index}.jpg`, await subjectPhoto(index, 'jpeg'), 'image/jpeg'));
    const late = [slow.add('late-1.jpg', await subjectPhoto(4, 'jpeg')), slow.add('late-2.jpg', await subjectPhoto(5))];
    const body = { image_urls: [...prompt, ...late], training_tier: 'fast' };

    // The first call may spend its budget loading the face models: asked again, the prompt photos are read.
    let report: Report | undefined;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const started = Date.now();
      const response = await runtime.call('POST', '/v2/service/profiles/preflight', { apiKey: account.apiKey, body });
      expect(response.status).toBe(200);
      expect(Date.now() - started).toBeLessThan((BUDGET_SECONDS + 2) * 1000);
      report = (await response.json()) as Report;
      expect(report.photos.slice(4).map((photo) => photo.status)).toEqual(['not_checked', 'not_checked']);
      if (report.photos.slice(0, 4).every((photo) => photo.status === 'checked')) break;
    }
    expect(report!.photos.map((photo) => photo.status)).toEqual([
      'checked',
      'checked',
      'checked',
      'checked',
      'not_checked',
      'not_checked',
    ]);
    expect(report!.photos[4]).toMatchObject({ fetched: false, error: null, face: null });
    expect(report!.accepted).toBe(false);
    expect(report!.problems).toEqual([
      `2 of 6 photos were not checked within the preflight's ${BUDGET_SECONDS} s (image_urls[4], image_urls[5]); send the preflight again: the photos already checked are remembered.`,
    ]);
  }, 60_000);
});
