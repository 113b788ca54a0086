/** The image-job steps' state schemas: what SettleCharge keeps of RunEngine's success. */
import * as v from 'valibot';
import { SettleStepSchema } from '../../../../functions/workflows/image-job/steps';

const success = {
  outcome: 'succeeded',
  outputKeys: ['outputs/acc_1/job_1/0.jpg'],
  knownSubjects: { prf_1: 1 },
  usage: { outputTokens: 0, megapixels: 3.1 },
};
const basis = {
  priced: { operation: 'enhance', numOutputImages: 1 },
  outputFormat: 'jpg',
  reservedMicros: 120_000,
  readStatus: 'running',
};

describe('SettleStepSchema', () => {
  it("keeps RunEngine's settle basis with the outcome", () => {
    const parsed = v.parse(SettleStepSchema, {
      accountId: 'acc_1',
      jobId: 'job_1',
      run: { ...success, settleBasis: basis },
    });
    expect(parsed.run).toEqual({ ...success, settleBasis: basis });
  });

  it('takes an outcome without a basis (an execution started before it)', () => {
    const parsed = v.parse(SettleStepSchema, { accountId: 'acc_1', jobId: 'job_1', run: success });
    expect(parsed.run).toEqual(success);
  });

  it('refuses a basis whose status is not a job status', () => {
    const state = {
      accountId: 'acc_1',
      jobId: 'job_1',
      run: { ...success, settleBasis: { ...basis, readStatus: 'x' } },
    };
    expect(v.safeParse(SettleStepSchema, state).success).toBe(false);
  });
});
