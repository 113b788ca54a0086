/**
 * `recognized_faces` on a finished job's body (poll and callback alike): the recognitions stored with the
 * counts, in the wire's names; `[]` for a job stored before boxes were kept.
 */
import type { JobResult } from '../../../../functions/domain/jobs/job';
import { statusBody } from '../../../../functions/domain/jobs/status';
import { aJob } from '../../../support/builders/jobs';

const NOW = Date.parse('2026-11-24T12:00:00.000Z');
const link = async (_baseUrl: string, grant: { objectKey: string }) => `https://api.test/dl/${grant.objectKey}`;
const succeeded = (result: JobResult) => aJob('acc_1', { status: 'succeeded', completedAt: NOW, result }, NOW - 5000);

describe('a finished job’s recognized faces', () => {
  it('are answered with the counts they make, output by output, box in whole pixels', async () => {
    const job = succeeded({
      outputKeys: ['outputs/acc_1/job/0.png', 'outputs/acc_1/job/1.png'],
      outputFormat: 'png',
      knownSubjects: { prf_a: 2 },
      recognizedFaces: [
        { outputIndex: 0, profileId: 'prf_a', box: { x: 10, y: 20, width: 100, height: 120 }, billed: true },
        { outputIndex: 1, profileId: 'prf_a', box: { x: 0, y: 5, width: 90, height: 95 }, billed: true },
      ],
    });
    const body = await statusBody(job, link, NOW);
    expect(body.result).toMatchObject({
      known_subjects: { counts: { prf_a: 2 } },
      recognized_faces: [
        { output_index: 0, profile_id: 'prf_a', box: { x: 10, y: 20, width: 100, height: 120 }, billed: true },
        { output_index: 1, profile_id: 'prf_a', box: { x: 0, y: 5, width: 90, height: 95 }, billed: true },
      ],
    });
  });

  it('are an empty list for a job stored before they were kept', async () => {
    const job = succeeded({
      outputKeys: ['outputs/acc_1/job/0.png'],
      outputFormat: 'png',
      knownSubjects: { prf_a: 1 },
    });
    expect((await statusBody(job, link, NOW)).result).toMatchObject({
      known_subjects: { counts: { prf_a: 1 } },
      recognized_faces: [],
    });
  });
});
