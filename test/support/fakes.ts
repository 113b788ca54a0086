/**
 * In-memory fakes of the typed ports, for unit tests of the use cases. The ledger keeps the same
 * promises as the table adapter (the data-layer suite holds that adapter to DynamoDB Local): a reserve
 * creates its record and claim or nothing, a lost claim wins over the balance, settle and release move
 * money only while the charge is `reserved`.
 */
import type {
  ChargeOutcome,
  ChargeOwners,
  ChargeState,
  ClientRequestIdClaim,
  LedgerEntry,
  LedgerPort,
  ReleaseInput,
  ReserveInput,
  SettleInput,
} from '../../functions/domain/billing/ledger';
import { ownerOf } from '../../functions/domain/billing/ledger';
import type {
  DecodedImage,
  EngineOutcome,
  EngineRequest,
  EngineTicket,
  ImageEngine,
} from '../../functions/domain/engine/engine';
import {
  AlreadyExistsError,
  ClientRequestIdTakenError,
  InsufficientBalanceError,
  NotFoundError,
} from '../../functions/domain/errors';
import type { DetectedFace, FaceAnalyzer } from '../../functions/domain/faces';
import type { ImageDeps } from '../../functions/domain/images/deps';
import type { Job, JobFailed, JobPage, JobSucceeded, JobsRepository } from '../../functions/domain/jobs/job';
import { noMeter } from '../../functions/domain/shared/meter';

interface StoredJob {
  job: Job;
  chargeState: ChargeState;
  reservedMicros: number;
}

/** The fake holds jobs: their records typed as the domain's (the table adapter binds profiles too). */
interface FakeOwners extends ChargeOwners {
  job: { record: Job; settled: JobSucceeded; released: JobFailed };
}

export class FakeLedger implements LedgerPort<FakeOwners> {
  readonly entries: LedgerEntry[] = [];
  readonly jobs = new Map<string, StoredJob>();
  readonly claims = new Map<string, ClientRequestIdClaim>();
  private balances = new Map<string, number>();
  private sequence = 0;

  constructor(accounts: Record<string, number>) {
    for (const [accountId, micros] of Object.entries(accounts)) this.balances.set(accountId, micros);
  }

  private entry(
    accountId: string,
    kind: LedgerEntry['kind'],
    amountMicros: number,
    owner: LedgerEntry['owner'],
    at: number,
  ): LedgerEntry {
    const entry = {
      entryId: `led_${++this.sequence}`,
      accountId,
      kind,
      amountMicros,
      owner,
      note: null,
      createdAt: at,
    };
    this.entries.push(entry);
    this.balances.set(accountId, (this.balances.get(accountId) ?? 0) + amountMicros);
    return entry;
  }

  async credit(input: { accountId: string; amountMicros: number; note: string; at: number }): Promise<LedgerEntry> {
    return this.entry(input.accountId, 'credit', input.amountMicros, null, input.at);
  }

  async reserve(input: ReserveInput<FakeOwners>): Promise<LedgerEntry> {
    if (input.creates.kind !== 'job') throw new Error('the fake ledger holds jobs only');
    const owner = ownerOf(input.creates);
    if (this.jobs.has(owner.id)) throw new AlreadyExistsError(`job ${owner.id}`);
    const claimKey = input.claim && `${input.accountId}/${input.claim.clientRequestId}`;
    if (claimKey && this.claims.has(claimKey)) throw new ClientRequestIdTakenError(input.claim!.clientRequestId);
    const balance = this.balances.get(input.accountId);
    if (balance === undefined) throw new NotFoundError(`Account ${input.accountId} not found.`);
    if (balance < input.amountMicros) throw new InsufficientBalanceError(input.amountMicros, balance);
    this.jobs.set(owner.id, {
      job: structuredClone(input.creates.job),
      chargeState: 'reserved',
      reservedMicros: input.amountMicros,
    });
    if (claimKey) this.claims.set(claimKey, input.claim!);
    return this.entry(input.accountId, 'reserve', -input.amountMicros, owner, input.at);
  }

  async settle(input: SettleInput<FakeOwners>): Promise<ChargeOutcome> {
    const stored = this.charged(input.ends.id);
    if (stored.chargeState !== 'reserved') return { applied: false, chargeState: stored.chargeState };
    if (input.ends.kind !== 'job') throw new Error('the fake ledger holds jobs only');
    Object.assign(stored, { chargeState: 'settled', job: { ...stored.job, ...input.ends.end } });
    // As the ledger adapter: never more than the reservation.
    const charged = Math.min(input.finalMicros, stored.reservedMicros);
    this.entry(
      input.accountId,
      'settle',
      stored.reservedMicros - charged,
      { kind: 'job', id: input.ends.id },
      input.at,
    );
    return { applied: true, chargeState: 'settled', amountMicros: charged };
  }

  async release(input: ReleaseInput<FakeOwners>): Promise<ChargeOutcome> {
    const stored = this.charged(input.ends.id);
    if (stored.chargeState !== 'reserved') return { applied: false, chargeState: stored.chargeState };
    if (input.ends.kind !== 'job') throw new Error('the fake ledger holds jobs only');
    Object.assign(stored, { chargeState: 'released', job: { ...stored.job, ...input.ends.end } });
    this.entry(input.accountId, 'release', stored.reservedMicros, { kind: 'job', id: input.ends.id }, input.at);
    return { applied: true, chargeState: 'released', amountMicros: stored.reservedMicros };
  }

  private charged(id: string): StoredJob {
    const stored = this.jobs.get(id);
    if (!stored) throw new NotFoundError(`No charge recorded for job ${id}.`);
    return stored;
  }

  async balance(accountId: string): Promise<number> {
    const balance = this.balances.get(accountId);
    if (balance === undefined) throw new NotFoundError(`Account ${accountId} not found.`);
    return balance;
  }

  async recentEntries(accountId: string, limit: number): Promise<LedgerEntry[]> {
    return this.entries
      .filter((entry) => entry.accountId === accountId)
      .reverse()
      .slice(0, limit);
  }

  /** The ledger entries of one job, oldest first, as `kind amount` pairs. */
  movesOf(jobId: string): string[] {
    return this.entries
      .filter((entry) => entry.owner?.id === jobId)
      .map((entry) => `${entry.kind} ${entry.amountMicros}`);
  }
}

/** The job records the fake ledger created, read as the jobs repository reads the table. */
export const fakeJobs = (ledger: FakeLedger): JobsRepository => ({
  get: async (accountId, jobId) => {
    const stored = ledger.jobs.get(jobId);
    return stored && stored.job.accountId === accountId ? structuredClone(stored.job) : undefined;
  },
  list: async (): Promise<JobPage> => ({ jobs: [...ledger.jobs.values()].map((stored) => stored.job) }),
  markRunning: async (_accountId, jobId, at) => {
    const stored = ledger.jobs.get(jobId);
    if (stored?.job.status === 'pending') stored.job = { ...stored.job, status: 'running', startedAt: at };
    return 'started';
  },
  findByClientRequestId: async (accountId, clientRequestId) => {
    const claim = ledger.claims.get(`${accountId}/${clientRequestId}`);
    return claim && { jobId: claim.jobId, fingerprint: claim.fingerprint };
  },
  forgetClientRequestId: async (accountId, clientRequestId, jobId) => {
    const key = `${accountId}/${clientRequestId}`;
    if (ledger.claims.get(key)?.jobId === jobId) ledger.claims.delete(key);
  },
  recordProgress: async (accountId, jobId, progress, at) => {
    const stored = ledger.jobs.get(jobId);
    if (
      stored?.job.accountId === accountId &&
      stored.job.status === 'running' &&
      (stored.job.progress ?? -1) < progress
    )
      stored.job = { ...stored.job, progress, progressAt: at };
  },
  recordTicket: async (accountId, jobId, ticket) => {
    const stored = ledger.jobs.get(jobId);
    if (stored?.job.accountId !== accountId) throw new Error(`job ${jobId} not found`);
    if (stored.job.engineTickets.length === 0) stored.job = { ...stored.job, engineTickets: [structuredClone(ticket)] };
    return structuredClone(stored.job.engineTickets[0] ?? ticket);
  },
  markReportResumed: async (accountId, jobId) => {
    const stored = ledger.jobs.get(jobId);
    if (stored?.job.accountId !== accountId) return;
    stored.job = { ...stored.job, reportResumed: true };
  },
  addTicket: async (accountId, jobId, ticket) => {
    const stored = ledger.jobs.get(jobId);
    if (stored?.job.accountId !== accountId) throw new Error(`job ${jobId} not found`);
    stored.job = { ...stored.job, engineTickets: [...stored.job.engineTickets, structuredClone(ticket)] };
  },
  markEngineCall: async (accountId, jobId, at) => {
    const stored = ledger.jobs.get(jobId);
    if (stored?.job.accountId !== accountId) throw new Error(`job ${jobId} not found`);
    if (stored.job.engineCallAt != null) return false;
    stored.job = { ...stored.job, engineCallAt: at };
    return true;
  },
  awaitEngine: async (accountId, jobId, taskToken, at) => {
    const stored = ledger.jobs.get(jobId);
    if (stored?.job.accountId !== accountId) return undefined;
    const before = structuredClone(stored.job);
    stored.job = { ...stored.job, awaitToken: taskToken, awaitSince: at };
    return before;
  },
  recordEngineReport: async (accountId, jobId, requestId) => {
    const stored = ledger.jobs.get(jobId);
    if (stored?.job.accountId !== accountId) return undefined;
    const reported = stored.job.engineReported ?? [];
    if (reported.includes(requestId)) return { first: false, job: structuredClone(stored.job) };
    stored.job = { ...stored.job, engineReported: [...reported, requestId].sort() };
    return { first: true, job: structuredClone(stored.job) };
  },
  recordRun: async (accountId, jobId, run) => {
    const stored = ledger.jobs.get(jobId);
    if (stored?.job.accountId === accountId) stored.job = { ...stored.job, engineRun: stored.job.engineRun ?? run };
  },
});

/** A face of `kind` whose embedding is `embedding`, the rest of what an analyser reports made up. */
export const fakeFace = (embedding: number[], kind: DetectedFace['kind'] = 'person'): DetectedFace => ({
  box: { x: 0, y: 0, width: 300, height: 300 },
  landmarks: [],
  detectorScore: 0.9,
  kind,
  faceConfidence: kind === 'person' ? 0.9 : 0,
  embedding,
  sharpness: 1,
  yawDegrees: 0,
  pitchDegrees: 0,
  luminance: 0.5,
});

export const FAKE_FACE_MODEL = 'fake-faces/1';

/** A face analyser that finds in each image the faces `facesOf` says (none by default), and records what it analysed. */
export const fakeFaceAnalyzer = (
  facesOf: (image: Buffer) => DetectedFace[] = () => [],
): FaceAnalyzer & { analysed: Buffer[]; facesAnalysed: () => number } => {
  const analysed: Buffer[] = [];
  let facesAnalysed = 0;
  return {
    modelId: FAKE_FACE_MODEL,
    analysed,
    facesAnalysed: () => facesAnalysed,
    // As the real analyser: with `enough`, faces in the order given (the listed order stands for largest
    // first) until enough(faces so far) holds.
    analyze: async (image, options = {}) => {
      analysed.push(image);
      const faces: DetectedFace[] = [];
      for (const face of facesOf(image)) {
        if (options.enough?.(faces)) break;
        faces.push(face);
        facesAnalysed += 1;
      }
      return faces;
    },
    crop: async () => Buffer.from('crop'),
  };
};

/** An engine that answers `numOutputImages` images, or the given outcome or error. */
export const fakeEngine = (
  answer: ((request: EngineRequest) => Promise<EngineOutcome>) | EngineOutcome = {
    kind: 'images',
    images: [],
    usage: { outputTokens: 0, megapixels: 0 },
  },
): ImageEngine & { requests: EngineRequest[] } => {
  const requests: EngineRequest[] = [];
  return {
    requests,
    run: async (request) => {
      requests.push(request);
      if (typeof answer === 'function') return answer(request);
      return answer.kind === 'images'
        ? { ...answer, images: Array.from({ length: request.numOutputImages }, (_, i) => Buffer.from(`output ${i}`)) }
        : answer;
    },
  };
};

/** A clock that only moves when told to, and a sleep that moves it instead of waiting. */
export const manualTime = (start: number) => {
  let now = start;
  const advance = (ms: number) => {
    now += ms;
  };
  return { clock: () => now, sleep: async (ms: number) => advance(ms), advance };
};

export interface FakeImageWorld {
  deps: ImageDeps;
  ledger: FakeLedger;
  engine: ReturnType<typeof fakeEngine>;
  time: ReturnType<typeof manualTime>;
  stored: Map<string, Buffer>;
  started: Array<{ accountId: string; jobId: string; hasCallback: boolean }>;
  /** The tickets whose work the use cases asked their provider to stop, in order. */
  canceledTickets: EngineTicket[];
}

/** Image use-case dependencies on fakes: one account with `balanceMicros`, inputs decoded as 2048x1536 JPEGs. */
export const fakeImageWorld = (
  accountId: string,
  balanceMicros: number,
  now = Date.parse('2026-11-23T12:00:00Z'),
): FakeImageWorld => {
  const ledger = new FakeLedger({ [accountId]: balanceMicros });
  const engine = fakeEngine();
  const time = manualTime(now);
  const stored = new Map<string, Buffer>();
  const started: FakeImageWorld['started'] = [];
  const canceledTickets: EngineTicket[] = [];
  let ids = 0;
  const deps: ImageDeps = {
    clock: time.clock,
    meter: noMeter,
    sleep: time.sleep,
    newId: (prefix) => `${prefix}_${String(++ids).padStart(4, '0')}`,
    ledger,
    profiles: { findMany: async () => [], get: async () => undefined },
    jobs: fakeJobs(ledger),
    cancelEngineWork: async (ticket) => void canceledTickets.push(ticket),
    engine,
    faces: fakeFaceAnalyzer(),
    decodeInput: async (value): Promise<DecodedImage> => ({
      data: Buffer.from(value),
      format: 'jpeg',
      width: 2048,
      height: 1536,
    }),
    inputs: {
      save: async (owner, jobId, images) =>
        images.map((image, i) => ({
          key: `inputs/${owner}/${jobId}/${i}`,
          format: image.format,
          width: image.width,
          height: image.height,
        })),
      load: async () => [],
      remove: async (owner, jobId) => {
        for (const key of stored.keys()) if (key.startsWith(`inputs/${owner}/${jobId}/`)) stored.delete(key);
      },
    },
    outputs: {
      save: async (owner, jobId, images, format) =>
        images.map((image, i) => {
          const key = `outputs/${owner}/${jobId}/${i}.${format}`;
          stored.set(key, image);
          return key;
        }),
      load: async (keys) => keys.map((key) => stored.get(key)!),
      link: async (baseUrl, grant) => `${baseUrl}/v2/service/downloads/${grant.objectKey}?until=${grant.expiresAt}`,
    },
    workflows: { startImageJob: async (input) => void started.push(input) },
    settings: {
      syncBudgetMs: 290_000,
      asyncBudgetMs: 840_000,
      outputFormatSwitchAt: 0,
      replayPollMs: 200,
      maxRunningJobs: 20,
      templateBudgetMs: 20_000,
    },
    profileTemplates: { photos: { load: async () => [] }, profiles: { addFace: async () => 'stored' } },
  };
  return { deps, ledger, engine, time, stored, started, canceledTickets };
};
