/**
 * What a benchmark module is and the few helpers every module uses. A module is a file
 * `bench/<name>.bench.ts` exporting `name` and `run()`; `bench/run.ts` finds it, runs it in a process
 * of its own (so memory peaks and module state are its own) and collects its results.
 */

/** One measured number. `target` says the goal in words ("≤ 1.15"); `pass` is set only when there is one. */
export interface BenchResult {
  /** Dotted, stable across runs, e.g. `images.enhance.service.median_ms`. */
  metric: string;
  value: number;
  unit: string;
  target?: string;
  pass?: boolean;
  notes?: string;
}

export interface BenchModule {
  name: string;
  run(): Promise<BenchResult[]>;
}

/** Progress goes to stderr so that stdout carries only the results table. */
export const progress = (module: string, message: string): void => {
  process.stderr.write(`[${module}] ${message}\n`);
};

export interface Summary {
  median: number;
  p90: number;
  min: number;
  max: number;
  runs: number;
}

/** Nearest-rank percentile (p90 of 10 runs is the 9th fastest). */
export const percentile = (samples: readonly number[], fraction: number): number => {
  if (samples.length === 0) throw new Error('percentile of no samples');
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
};

export const median = (samples: readonly number[]): number => {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export const summarise = (samples: readonly number[]): Summary => ({
  median: median(samples),
  p90: percentile(samples, 0.9),
  min: Math.min(...samples),
  max: Math.max(...samples),
  runs: samples.length,
});

/** Wall-clock milliseconds of one call. */
export const timed = async <T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> => {
  const startedAt = performance.now();
  const value = await work();
  return { ms: performance.now() - startedAt, value };
};

/**
 * Runs each variant `warmups` times, then `runs` rounds in which every variant runs once, in an order
 * that rotates each round: the variants see the same background load, so their ratio is fair even on a
 * busy machine. Strictly sequential.
 */
export const compareSequentially = async (
  variants: Record<string, () => Promise<unknown>>,
  options: { warmups: number; runs: number },
): Promise<Record<string, number[]>> => {
  const names = Object.keys(variants);
  for (let round = 0; round < options.warmups; round += 1) {
    for (const name of names) await variants[name]();
  }
  const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < options.runs; round += 1) {
    for (let index = 0; index < names.length; index += 1) {
      const name = names[(index + round) % names.length];
      samples[name].push((await timed(variants[name])).ms);
    }
  }
  return samples;
};

/**
 * The samples of a paired comparison: the base's runs; for each variant, its runs and the ratio of each
 * pair; for each unpaired variant, its runs.
 */
export interface PairedSamples {
  base: number[];
  variants: Record<string, { samples: number[]; ratios: number[] }>;
  unpaired: Record<string, number[]>;
}

/**
 * Runs `base` and each variant back to back as a pair, `runs` rounds of one pair per variant, after
 * `warmups` rounds untimed. Within a pair the order alternates round by round (base first, then the
 * variant first), so neither gains from running second. Each pair sees the same moment of the
 * machine's load, so the ratio of a pair (variant / base) cancels what drifts slower than a pair; the
 * median of those ratios is the comparison's figure. `unpaired` variants (for information) run once a
 * round, after the pairs, without a base run of their own. Strictly sequential.
 */
export const comparePaired = async (
  base: () => Promise<unknown>,
  variants: Record<string, () => Promise<unknown>>,
  options: { warmups: number; runs: number; unpaired?: Record<string, () => Promise<unknown>> },
): Promise<PairedSamples> => {
  const names = Object.keys(variants);
  const unpaired = options.unpaired ?? {};
  for (let round = 0; round < options.warmups; round += 1) {
    for (const name of names) {
      await base();
      await variants[name]();
    }
    for (const call of Object.values(unpaired)) await call();
  }
  const result: PairedSamples = {
    base: [],
    variants: Object.fromEntries(names.map((name) => [name, { samples: [], ratios: [] }])),
    unpaired: Object.fromEntries(Object.keys(unpaired).map((name) => [name, []])),
  };
  for (let round = 0; round < options.runs; round += 1) {
    for (const name of names) {
      const baseFirst = round % 2 === 0;
      const first = (await timed(baseFirst ? base : variants[name])).ms;
      const second = (await timed(baseFirst ? variants[name] : base)).ms;
      const [baseMs, variantMs] = baseFirst ? [first, second] : [second, first];
      result.base.push(baseMs);
      result.variants[name].samples.push(variantMs);
      result.variants[name].ratios.push(variantMs / baseMs);
    }
    for (const [name, call] of Object.entries(unpaired)) result.unpaired[name].push((await timed(call)).ms);
  }
  return result;
};

/** `metric.median_ms` and `metric.p90_ms` of a set of timings. */
export const timingResults = (metric: string, samples: readonly number[], notes?: string): BenchResult[] => {
  const summary = summarise(samples);
  const spread = `${summary.runs} runs, min ${round(summary.min)}, max ${round(summary.max)}`;
  return [
    {
      metric: `${metric}.median_ms`,
      value: round(summary.median),
      unit: 'ms',
      notes: notes ? `${notes}; ${spread}` : spread,
    },
    { metric: `${metric}.p90_ms`, value: round(summary.p90), unit: 'ms' },
  ];
};

/** A result with an upper bound as its target. */
export const atMost = (result: Omit<BenchResult, 'target' | 'pass'>, limit: number): BenchResult => ({
  ...result,
  target: `≤ ${limit}`,
  pass: result.value <= limit,
});

export const round = (value: number, digits = 1): number => {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
};

export const megabytes = (bytes: number): number => round(bytes / (1024 * 1024), 1);
