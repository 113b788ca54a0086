/**
 * A succeeded job's result, built once for every way it is answered: a synchronous call, its idempotent
 * replay, a poll and the callback (status.ts). `imageResultBody` is its wire form (the spec's
 * snake_case names).
 */

import type { PricedOutcome } from '../catalog/pricing';
import type { EngineUsage } from '../engine/engine';
import type { CarriedBy, CheckedOutputs, IdentityCheck, IdentityReport } from '../engine/identity';
import type { RecognizedFace } from '../engine/recognition';
import { base64Of } from '../shared/base64';
import { DOWNLOAD_LINK_LIFETIME_MS, type DownloadGrant } from './download-token';
import type { Job, JobResult } from './job';

export type LinkMaker = (baseUrl: string, grant: DownloadGrant) => Promise<string>;

export interface ImageResult {
  /** The job the operation was recorded as. */
  jobId: string;
  /** profile id → times that subject appears, summed over all outputs. */
  knownSubjects: Record<string, number>;
  /** The recognitions, with each face's box (empty for a job stored before boxes were kept). */
  recognizedFaces: RecognizedFace[];
  /** Who was expected and kept in each output; absent with identity_check "off" (and on older jobs). */
  identity?: IdentityReport;
  /** The output images themselves (response_mode `bytes`), else empty. */
  images: Buffer[];
  /** Download links valid 24 h from completion (response_mode `urls`), else empty. */
  downloadUrls: string[];
}

export type FinishedJob = Pick<
  Job,
  'jobId' | 'accountId' | 'baseUrl' | 'responseMode' | 'createdAt' | 'completedAt'
> & {
  result: JobResult;
};

/** The job's download links, on the base URL it was submitted on, valid 24 h from its completion. */
export const downloadLinks = (link: LinkMaker, job: FinishedJob): Promise<string[]> =>
  Promise.all(
    job.result.outputKeys.map((objectKey) =>
      link(job.baseUrl, {
        objectKey,
        accountId: job.accountId,
        expiresAt: (job.completedAt ?? job.createdAt) + DOWNLOAD_LINK_LIFETIME_MS,
      }),
    ),
  );

/** Who the stored result shows, as every answer gives it (a sync call, a replay, a poll, a callback). */
export const subjectsOf = (result: JobResult): Pick<ImageResult, 'knownSubjects' | 'recognizedFaces' | 'identity'> => ({
  knownSubjects: result.knownSubjects,
  recognizedFaces: result.recognizedFaces ?? [],
  ...(result.identity && { identity: result.identity }),
});

/** The result as the job's caller asked for it: its images (loaded unless at hand) or links to them. */
export const resultOf = async (
  deps: { link: LinkMaker; load(keys: string[]): Promise<Buffer[]> },
  job: FinishedJob,
  imagesAtHand?: Buffer[],
): Promise<ImageResult> => ({
  jobId: job.jobId,
  ...subjectsOf(job.result),
  images: job.responseMode === 'bytes' ? (imagesAtHand ?? (await deps.load(job.result.outputKeys))) : [],
  downloadUrls: job.responseMode === 'urls' ? await downloadLinks(deps.link, job) : [],
});

export interface RecognizedFaceBody {
  output_index: number;
  profile_id: string;
  box: { x: number; y: number; width: number; height: number };
  similarity?: number;
  billed: boolean;
}

export interface IdentityBody {
  expected: string[];
  outputs: {
    output_index: number;
    kept: string[];
    missing: string[];
    attempts: number;
    carried_by?: Record<string, CarriedBy>;
  }[];
  retried_outputs: number;
  not_checked?: string[];
}

export interface ImageResultBody {
  known_subjects: { counts: Record<string, number> };
  recognized_faces: RecognizedFaceBody[];
  identity?: IdentityBody;
  images: string[];
  download_urls: string[];
}

export const imageResultBody = (result: ImageResult): ImageResultBody => ({
  known_subjects: { counts: result.knownSubjects },
  recognized_faces: result.recognizedFaces.map(({ outputIndex, profileId, box, similarity, billed }) => ({
    output_index: outputIndex,
    profile_id: profileId,
    box: { x: box.x, y: box.y, width: box.width, height: box.height },
    ...(similarity !== undefined && { similarity }),
    billed,
  })),
  ...(result.identity && {
    identity: {
      expected: result.identity.expected,
      outputs: result.identity.outputs.map(({ outputIndex, kept, missing, attempts, carriedBy }) => ({
        output_index: outputIndex,
        kept,
        missing,
        attempts,
        ...(carriedBy && { carried_by: carriedBy }),
      })),
      retried_outputs: result.identity.retriedOutputs ?? 0,
      ...(result.identity.notChecked && { not_checked: result.identity.notChecked }),
    },
  }),
  images: result.images.map(base64Of),
  download_urls: result.downloadUrls,
});

/** What a checked run keeps on the job: the counts it bills, the matches, and (unless "off") the report. */
export const identityResult = (
  checked: Pick<CheckedOutputs, 'recognition' | 'identity' | 'retries'>,
  mode: IdentityCheck,
): Pick<JobResult, 'knownSubjects' | 'recognizedFaces' | 'identity' | 'identityRetries'> => ({
  knownSubjects: checked.recognition.knownSubjects,
  recognizedFaces: checked.recognition.recognizedFaces,
  ...(mode !== 'off' && { identity: checked.identity }),
  ...(checked.retries.calls > 0 && { identityRetries: checked.retries }),
});

/**
 * What a run is priced from (catalog/pricing.ts): the delivered call's usage, who is recognised in each
 * output, and what identity retries made again (charged to the caller) and used.
 */
export const pricedOutcomeOf = (
  usage: EngineUsage,
  result: Pick<JobResult, 'knownSubjects' | 'recognizedFaces' | 'identityRetries'>,
): PricedOutcome => ({
  usage,
  knownSubjects: result.knownSubjects,
  ...(result.recognizedFaces && { recognizedFaces: result.recognizedFaces }),
  ...(result.identityRetries?.outputs && {
    retries: {
      outputs: result.identityRetries.outputs,
      ...(result.identityRetries.usage && { usage: result.identityRetries.usage }),
    },
  }),
});

/** The operator's cost of the delivered call, where the provider reports it. */
export const providerCost = (usage: EngineUsage): Pick<JobResult, 'providerCostMicros'> =>
  usage.providerCostMicros === undefined ? {} : { providerCostMicros: usage.providerCostMicros };
