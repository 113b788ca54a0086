import { emfMeter } from '../../../functions/adapters/metrics';
import { meteredLedger } from '../../../functions/domain/billing/metered-ledger';
import { meteredEngine } from '../../../functions/domain/engine/engine';
import { failedAt, succeededAt } from '../../../functions/domain/jobs/job';
import { METRICS, METRICS_NAMESPACE, type Meter } from '../../../functions/domain/shared/meter';
import { aJob } from '../../support/builders/jobs';
import { FakeLedger } from '../../support/fakes';

const recording = () => {
  const seen: Array<{ name: string; value: number; dimensions: Record<string, string> }> = [];
  const meter: Meter = {
    count: (name, dimensions = {}, value = 1) => void seen.push({ name, value, dimensions }),
    milliseconds: (name, ms, dimensions = {}) => void seen.push({ name, value: ms, dimensions }),
  };
  return { meter, seen };
};

describe('metrics', () => {
  it('counts money and outcomes only for transitions that were applied, so a retried step counts nothing twice', async () => {
    const { meter, seen } = recording();
    const ledger = meteredLedger(new FakeLedger({ acc_1: 1_000_000 }), meter);
    const job = aJob('acc_1');
    await ledger.reserve({ accountId: 'acc_1', amountMicros: 120_000, creates: { kind: 'job', job }, at: 1 });
    const ends = { kind: 'job' as const, id: job.jobId, end: failedAt(2, { code: 'TIMEOUT', message: 'slow' }) };
    await ledger.release({ accountId: 'acc_1', ends, at: 2 });
    await ledger.release({ accountId: 'acc_1', ends, at: 3 });
    await ledger.settle({
      accountId: 'acc_1',
      finalMicros: 120_000,
      ends: {
        kind: 'job',
        id: job.jobId,
        end: succeededAt(4, { outputKeys: [], outputFormat: 'jpg', knownSubjects: {} }),
      },
      at: 4,
    });
    expect(seen).toEqual([
      { name: METRICS.reservedMicros, value: 120_000, dimensions: { kind: 'job' } },
      { name: METRICS.releasedMicros, value: 120_000, dimensions: { kind: 'job' } },
      { name: METRICS.jobsFailed, value: 1, dimensions: { code: 'TIMEOUT' } },
    ]);
  });

  it("logs and counts a settle's note once: the price above the reservation (the operator's loss) and usage missing", async () => {
    const { meter, seen } = recording();
    const warnings: Array<{ message: string; fields?: Record<string, unknown> }> = [];
    const ledger = meteredLedger(new FakeLedger({ acc_1: 1_000_000 }), meter, {
      warn: (message, fields) => void warnings.push({ message, fields }),
    });
    const job = aJob('acc_1');
    await ledger.reserve({ accountId: 'acc_1', amountMicros: 300_000, creates: { kind: 'job', job }, at: 1 });
    const settle = () =>
      ledger.settle({
        accountId: 'acc_1',
        finalMicros: 300_000,
        ends: {
          kind: 'job',
          id: job.jobId,
          end: succeededAt(2, { outputKeys: [], outputFormat: 'jpg', knownSubjects: {} }),
        },
        at: 2,
        note: { unbilledMicros: 45_000, usageMissing: false, pricedMicros: 345_000, providerCostMicros: 260_000 },
      });
    await settle();
    await settle();
    expect(seen.filter((entry) => entry.name === METRICS.unbilledMicros)).toEqual([
      { name: METRICS.unbilledMicros, value: 45_000, dimensions: { kind: 'job' } },
    ]);
    expect(warnings).toEqual([
      {
        message: expect.stringContaining('exceeded its reservation'),
        fields: expect.objectContaining({ jobId: job.jobId, unbilledMicros: 45_000, chargedMicros: 300_000 }),
      },
    ]);
    expect(await ledger.balance('acc_1')).toBe(700_000);
  });

  it('never settles above the reservation, whatever it is asked', async () => {
    const ledger = new FakeLedger({ acc_1: 100_000 });
    const job = aJob('acc_1');
    await ledger.reserve({ accountId: 'acc_1', amountMicros: 100_000, creates: { kind: 'job', job }, at: 1 });
    const end = succeededAt(2, { outputKeys: [], outputFormat: 'jpg', knownSubjects: {} });
    const outcome = await ledger.settle({
      accountId: 'acc_1',
      finalMicros: 130_000,
      ends: { kind: 'job', id: job.jobId, end },
      at: 2,
    });
    expect(outcome).toMatchObject({ applied: true, amountMicros: 100_000 });
    expect(await ledger.balance('acc_1')).toBe(0);
  });

  it('times the engine by operation and outcome, failures included', async () => {
    const { meter, seen } = recording();
    let clock = 0;
    const failing = meteredEngine(
      {
        run: async () => {
          clock += 250;
          throw new Error('down');
        },
      },
      meter,
      () => clock,
    );
    await expect(failing.run({ operation: 'remix' } as never, new AbortController().signal)).rejects.toThrow('down');
    expect(seen).toEqual([
      { name: METRICS.engineLatency, value: 250, dimensions: { operation: 'remix', outcome: 'error' } },
    ]);
  });

  it('writes each metric as one embedded-metric-format line in the service namespace, with its own dimensions', () => {
    const previous = process.env.POWERTOOLS_METRICS_DISABLED;
    process.env.POWERTOOLS_METRICS_DISABLED = 'false';
    const lines: string[] = [];
    const write = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      emfMeter().count(METRICS.jobsFailed, { code: 'TIMEOUT' });
    } finally {
      write.mockRestore();
      process.env.POWERTOOLS_METRICS_DISABLED = previous;
    }
    const emf = JSON.parse(lines.join('').trim()) as {
      _aws: {
        CloudWatchMetrics: Array<{ Namespace: string; Dimensions: string[][]; Metrics: Array<{ Name: string }> }>;
      };
      JobsFailed: number;
      code: string;
    };
    expect(emf._aws.CloudWatchMetrics[0]).toMatchObject({
      Namespace: METRICS_NAMESPACE,
      Metrics: [{ Name: 'JobsFailed', Unit: 'Count' }],
    });
    expect(emf._aws.CloudWatchMetrics[0]!.Dimensions[0]).toEqual(expect.arrayContaining(['code']));
    expect(emf).toMatchObject({ JobsFailed: 1, code: 'TIMEOUT' });
  });
});
