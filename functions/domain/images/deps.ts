/** What the image use cases (prepare, run-sync, submit-async, idempotency, submit) are given. */
import type { LedgerPort } from '../billing/ledger';
import type { DecodedImage, EngineTicket, ImageEngine, OutputFormat } from '../engine/engine';
import type { FaceAnalyzer } from '../faces';
import type { JobsRepository, StoredInput } from '../jobs/job';
import type { LinkMaker } from '../jobs/result';
import type { ProfilesReader } from '../profiles/profile';
import type { TemplateDeps } from '../profiles/templates';
import type { Clock } from '../shared/clock';
import type { IdSource } from '../shared/ids';
import type { Meter } from '../shared/meter';

export interface ImageDeps {
  clock: Clock;
  meter: Meter;
  /** Waits; injected so that tests of waiting paths take no time. */
  sleep(ms: number): Promise<void>;
  newId: IdSource;
  ledger: LedgerPort;
  profiles: ProfilesReader;
  jobs: JobsRepository;
  engine: ImageEngine;
  /**
   * Asks the provider a ticket names to stop its work, through the ticket's own provider whatever the routes
   * say now; never throws (a replay's release of an abandoned call stops what that call left running).
   */
  cancelEngineWork(ticket: EngineTicket): Promise<void>;
  /** Finds the faces in every output, for recognition (engine/recognition.ts). */
  faces: FaceAnalyzer;
  /**
   * What makes a READY profile's template of the current face model inside a request (profiles/templates.ts):
   * its stored photos, and the conditional write that stores the template once.
   */
  profileTemplates: Pick<TemplateDeps, 'photos' | 'profiles'>;
  /** Reads and checks one input; `accountId` owns the direct uploads it may reference. */
  decodeInput(value: string, label: string, signal: AbortSignal, accountId: string): Promise<DecodedImage>;
  inputs: {
    /** Keeps an async job's decoded inputs for its workflow, under the account's prefix. */
    save(accountId: string, jobId: string, images: DecodedImage[]): Promise<StoredInput[]>;
    load(inputs: StoredInput[]): Promise<DecodedImage[]>;
    remove(accountId: string, jobId: string): Promise<void>;
  };
  outputs: {
    /** Stores the outputs under the account's prefix; returns their object keys. */
    save(accountId: string, jobId: string, images: Buffer[], format: OutputFormat): Promise<string[]>;
    load(keys: string[]): Promise<Buffer[]>;
    /** The public download link for a grant, on the API's base URL. */
    link: LinkMaker;
  };
  workflows: {
    /** Starts the image-job workflow for a job; starting it again is harmless. */
    /** `maxRunning`: how many of the account's asynchronous jobs may run at once (more wait in pending, until `runUntil`). */
    startImageJob(input: {
      accountId: string;
      jobId: string;
      hasCallback: boolean;
      maxRunning: number;
      runUntil: number;
    }): Promise<void>;
  };
  settings: {
    syncBudgetMs: number;
    asyncBudgetMs: number;
    /** Epoch ms from which the default output format is jpg (png before). */
    outputFormatSwitchAt: number;
    /** How often a replayed synchronous request looks for its original's result. */
    replayPollMs: number;
    /** Asynchronous jobs an account may have running at once, unless the operator set its own cap. */
    maxRunningJobs: number;
    /** Public model names this deployment accepts in `base_model` (MODEL_ALIASES), each → a catalog id. */
    modelAliases?: Readonly<Record<string, string>>;
    /** How long a request may spend making the templates of the current face model its profiles lack. */
    templateBudgetMs: number;
  };
  warn?(message: string, fields: Record<string, unknown>): void;
}
