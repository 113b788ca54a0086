/**
 * Read first: how identity is kept and checked, for every engine, sync and async.
 *
 * 1. Who is there decides what is sent (`expectedCandidates`, before the engine runs): a candidate is
 *    expected when named as `[[id]]` in the prompt, or when it is *present*, recognised in an input by the
 *    same rule as outputs. Which inputs count depends on the operation: generate has none (named only);
 *    edit, every input; enhance, its `image`; remix, its `input_image` (never the `reference_image`, which
 *    is style). Only expected candidates become the engine's candidates: an absent one is sent no crop and
 *    no words, and cannot be recognised or billed in that request. Each input is analysed once, its faces
 *    largest first and only until every candidate is found. A candidate found keeps its face's head pose
 *    (`inputPose`), and a named one whose references have poses (a Full Train bank) is looked for too:
 *    the references closest to that pose are sent (reference-choice.ts).
 * 2. After the engine (`checkIdentity`): every output is recognised (recognition.ts); each output's entry
 *    in the identity report says which expected subjects it kept and which it is missing.
 * 3. With `identity_check: "retry"`, an output is made again (the same request, one image per output to
 *    make again) when it can help (`worthRetrying`): it misses an expected subject AND shows a face that is
 *    no expected subject's (a stranger, or the subject drawn too far from the profile to be recognised),
 *    which another attempt can draw as the subject. An output that shows no face beyond the subjects it
 *    kept (the missing subject drawn from behind, too small or out of frame) is delivered as it is: the
 *    same prompt tends to make the same picture again, and there is no face to recognise.
 *    At most MAX_IDENTITY_RETRIES more times; each output delivered is its best attempt (most expected
 *    subjects kept, then the highest similarity). Every output made again is the caller's, charged at the
 *    operation's per-output price (catalog/pricing.ts) and reserved up front; `retries` says how many and
 *    what their calls used (their provider cost is the operator's to see, never answered).
 * 4. A retry starts only when it can end in time (`RetryWindow`): an attempt is expected to take as long
 *    as the longest so far, and a retry still running when the window closes is abandoned, its outputs
 *    neither delivered nor charged. The best attempts so far are then delivered, on the sync path as on
 *    the async one.
 */
import type { DetectedFace, FaceAnalyzer, HeadPose } from '../faces';
import {
  abortableRun,
  type CandidateProfile,
  type DecodedImage,
  type EngineOutcome,
  type EngineRequest,
  type EngineUsage,
  type ImageEngine,
  type KeepTicket,
  type Operation,
} from './engine';
import {
  faceMatches,
  facesToMatch,
  type Recognition,
  type RecognizedFace,
  recogniseFaces,
  recognitionOf,
} from './recognition';

export const IDENTITY_CHECKS = ['report', 'retry', 'off'] as const;
export type IdentityCheck = (typeof IDENTITY_CHECKS)[number];

/** Extra attempts at an output that is missing an expected subject, with `identity_check: "retry"`. */
export const MAX_IDENTITY_RETRIES = 2;

export interface OutputIdentity {
  outputIndex: number;
  /** Expected subjects recognised in the output, in the order of `expected`. */
  kept: string[];
  missing: string[];
  /** How many times this output was made (1 without a retry). */
  attempts: number;
  /**
   * How each expected subject was given to the model for the attempt delivered: by its LoRA (a model that
   * takes one, identity-prompt.ts `loraCarried`) or by its reference images. Absent when nobody is
   * expected, and on runs before it.
   */
  carriedBy?: Record<string, CarriedBy>;
}

export const CARRIED_BY = ['lora', 'references'] as const;
export type CarriedBy = (typeof CARRIED_BY)[number];

export interface IdentityReport {
  /** The named and present subjects, in request order. */
  expected: string[];
  /** One entry per output. */
  outputs: OutputIdentity[];
  /** Outputs made again by identity retries, each charged at the operation's per-output price (absent on older runs: none was). */
  retriedOutputs?: number;
  /**
   * Expected subjects with no template of the analyser's face model (not made within the request's template
   * budget, or their photos no longer give one): sent as the others, never recognised, never billed, never
   * counted as missing. Absent when every expected subject was checked.
   */
  notChecked?: string[];
}

/** What identity retries made: the caller pays for each output made again; the provider cost is the operator's to see. */
export interface IdentityRetries {
  calls: number;
  /** Outputs made again and received (each charged at the operation's per-output price); absent on older runs. */
  outputs?: number;
  /** What the retry calls used, summed (a metered model prices it). */
  usage?: EngineUsage;
  providerCostMicros?: number;
}

/**
 * When retries must end: `endsAt` (epoch ms) leaves the time to save the outputs and settle; a retry starts
 * only when `clock() + expected` fits before it, `expected` being the longest attempt so far (at first
 * `firstCallMs`, the first engine call, plus the analysis of its outputs).
 */
export interface RetryWindow {
  endsAt: number;
  firstCallMs: number;
  clock: () => number;
}

/** Which inputs a `profile_ids` candidate may be present in, by operation (their indices in `images`). */
const searchedInputs = (operation: Operation, images: readonly DecodedImage[]): DecodedImage[] => {
  if (operation === 'edit') return [...images];
  if (operation === 'enhance' || operation === 'remix') return images.slice(0, 1);
  return [];
};

/**
 * The candidates the engine is given: named in the prompt, or present in a searched input. The order is
 * the request's (profile_ids first, then prompt-only names), so `expected` follows it too.
 */
export const expectedCandidates = async (
  analyzer: Pick<FaceAnalyzer, 'analyze' | 'modelId'>,
  request: Pick<EngineRequest, 'operation' | 'images' | 'candidates' | 'namedInPrompt'>,
  signal?: AbortSignal,
): Promise<CandidateProfile[]> => {
  // A candidate without a template of this model cannot be found in an input: it is sent as if present (the
  // caller listed it), and reported not checked (checkIdentity).
  const checkable = (candidate: CandidateProfile) => candidate.face?.modelId === analyzer.modelId;
  const unnamed = request.candidates.filter(
    (candidate) => !request.namedInPrompt.includes(candidate.profileId) && checkable(candidate),
  );
  // A named subject is looked for too when its references have poses (a Full Train bank): its face in the
  // input picks which of them are sent (reference-choice.ts). Others named are not: nothing would change.
  const hasPoses = (candidate: CandidateProfile) => (candidate.face?.referencePoses?.length ?? 0) > 0;
  const posed = request.candidates.filter(
    (candidate) => request.namedInPrompt.includes(candidate.profileId) && checkable(candidate) && hasPoses(candidate),
  );
  const sought = [...unnamed, ...posed];
  const inputs = sought.length > 0 ? searchedInputs(request.operation, request.images) : [];
  const present = new Map<string, HeadPose>();
  // Presence follows the rule it always did (the unnamed among themselves); the named are matched apart.
  const recognisedIn = (faces: readonly DetectedFace[]) => [
    ...faceMatches(analyzer.modelId, [[...faces]], unnamed),
    ...faceMatches(analyzer.modelId, [[...faces]], posed),
  ];
  // Each candidate needs finding once: an input's faces are analysed largest first until every candidate
  // not yet found is, and inputs after the last one found are not analysed at all.
  const everyoneFound = (faces: readonly DetectedFace[]) => {
    const found = new Set([...present.keys(), ...recognisedIn(faces).map((match) => match.profileId)]);
    return sought.every((candidate) => found.has(candidate.profileId));
  };
  for (const input of inputs) {
    if (present.size === sought.length) break;
    signal?.throwIfAborted();
    for (const { profileId, face } of recognisedIn(await analyzer.analyze(input.data, { enough: everyoneFound })))
      if (!present.has(profileId))
        present.set(profileId, { yawDegrees: face.yawDegrees, pitchDegrees: face.pitchDegrees });
  }
  return request.candidates
    .filter(
      (candidate) =>
        request.namedInPrompt.includes(candidate.profileId) ||
        present.has(candidate.profileId) ||
        !checkable(candidate),
    )
    .map((candidate) => {
      // Kept only where it picks something: references with poses.
      const inputPose = hasPoses(candidate) ? present.get(candidate.profileId) : undefined;
      return inputPose ? { ...candidate, inputPose } : candidate;
    });
};

/**
 * Whether making an output again can help: it misses an expected subject and shows a face recognition
 * could read (a person's, or an animal's) that is no expected subject's. A face drawn but not recognised is
 * another attempt's chance; no such face (the subject seen from behind, too small, left out) is not.
 */
export const worthRetrying = (
  faces: readonly DetectedFace[],
  recognised: readonly RecognizedFace[],
  expected: readonly string[],
): boolean => {
  const kept = expected.filter((id) => recognised.some((face) => face.profileId === id));
  if (kept.length === expected.length) return false;
  return facesToMatch(faces).length > recognised.filter((face) => expected.includes(face.profileId)).length;
};

/** One output's standing: expected subjects kept, then their summed similarity. */
const standing = (faces: readonly RecognizedFace[], expected: readonly string[]) => {
  const kept = expected.filter((id) => faces.some((face) => face.profileId === id));
  const similarity = faces
    .filter((face) => expected.includes(face.profileId))
    .reduce((sum, face) => sum + (face.similarity ?? 0), 0);
  return { kept, similarity };
};

const better = (a: ReturnType<typeof standing>, b: ReturnType<typeof standing>): boolean =>
  a.kept.length > b.kept.length || (a.kept.length === b.kept.length && a.similarity > b.similarity);

export interface CheckedOutputs {
  images: Buffer[];
  recognition: Recognition;
  identity: IdentityReport;
  retries: IdentityRetries;
}

const addCost = (total: number | undefined, usage: EngineUsage): number | undefined =>
  usage.providerCostMicros === undefined ? total : (total ?? 0) + usage.providerCostMicros;

const addUsage = (total: EngineUsage | undefined, usage: EngineUsage): EngineUsage => {
  if (!total) return { ...usage };
  const sum = (a: number | undefined, b: number | undefined) =>
    a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
  const inputTextTokens = sum(total.inputTextTokens, usage.inputTextTokens);
  const inputImageTokens = sum(total.inputImageTokens, usage.inputImageTokens);
  const providerCostMicros = sum(total.providerCostMicros, usage.providerCostMicros);
  return {
    outputTokens: total.outputTokens + usage.outputTokens,
    ...(inputTextTokens !== undefined && { inputTextTokens }),
    ...(inputImageTokens !== undefined && { inputImageTokens }),
    ...((total.tokensMissing === true || usage.tokensMissing === true) && { tokensMissing: true }),
    megapixels: total.megapixels + usage.megapixels,
    ...(providerCostMicros !== undefined && { providerCostMicros }),
  };
};

export interface CheckOptions {
  /** Aborts the whole check (the sync budget): rethrown. */
  signal?: AbortSignal;
  /** Ends the retries only (a cancel): the best attempts so far are delivered. */
  retrySignal?: AbortSignal;
  /** When retries must end (the sync deadline, what is left of an async job's budget); absent: no limit. */
  window?: RetryWindow;
  /** Asked before each retry: false (the job was canceled) delivers the best attempts so far. */
  stillWanted?: () => Promise<boolean>;
  /**
   * Handed to each retry's run: a queued provider's ticket is stored before its work is checked, so the
   * sweep of abandoned work cancels a retry that a dead process left running (a synchronous call's).
   */
  keepTicket?: KeepTicket;
  /** The subjects the first run carried by a LoRA (its outcome's `carriedByLora`). */
  carriedByLora?: readonly string[];
}

/**
 * Recognises the outputs of a finished run and, with `"retry"`, makes again the outputs missing an
 * expected subject. A retry that is refused, fails, is no longer wanted or runs out of `retrySignal`
 * leaves the best attempts so far; an abort of `signal` is rethrown.
 */
export const checkIdentity = async (
  deps: { engine: ImageEngine; faces: Pick<FaceAnalyzer, 'analyze' | 'modelId'> },
  request: EngineRequest,
  images: Buffer[],
  mode: IdentityCheck,
  { signal, retrySignal, window, stillWanted, keepTicket, carriedByLora = [] }: CheckOptions = {},
): Promise<CheckedOutputs> => {
  const notChecked = request.candidates
    .filter((candidate) => candidate.face?.modelId !== deps.faces.modelId)
    .map((candidate) => candidate.profileId);
  // Kept, missing and the retries are about the subjects that can be checked.
  const expected = request.candidates.map((candidate) => candidate.profileId).filter((id) => !notChecked.includes(id));
  const analyse = async (
    batch: readonly Buffer[],
  ): Promise<{ detected: DetectedFace[][]; found: RecognizedFace[][] }> => {
    if (expected.length === 0) return { detected: batch.map(() => []), found: batch.map(() => []) };
    const detected: DetectedFace[][] = [];
    for (const image of batch) {
      signal?.throwIfAborted();
      detected.push(await deps.faces.analyze(image));
    }
    const found = recogniseFaces(deps.faces.modelId, detected, request.candidates);
    return { detected, found: batch.map((_, index) => found.filter((face) => face.outputIndex === index)) };
  };

  const delivered = [...images];
  const analysisStartedAt = window?.clock();
  const first = await analyse(images);
  const facesOf = first.found;
  const detectedOf = first.detected;
  // An attempt is expected to take as long as the longest so far: the first call and its analysis, at first.
  let expectedAttemptMs =
    window && analysisStartedAt !== undefined ? window.firstCallMs + (window.clock() - analysisStartedAt) : 0;
  const attempts = images.map(() => 1);
  // Which subjects the delivered attempt of each output had carried by a LoRA.
  const loraOf = images.map(() => [...carriedByLora]);
  const retries: IdentityRetries = { calls: 0, outputs: 0 };
  for (let round = 1; mode === 'retry' && round <= MAX_IDENTITY_RETRIES; round += 1) {
    const short = delivered.flatMap((_, index) =>
      worthRetrying(detectedOf[index] ?? [], facesOf[index] ?? [], expected) ? [index] : [],
    );
    if (short.length === 0 || retrySignal?.aborted || (stillWanted && !(await stillWanted()))) break;
    const startedAt = window?.clock() ?? 0;
    if (window && startedAt + expectedAttemptMs > window.endsAt) break;
    const signals = [signal, retrySignal, window && AbortSignal.timeout(Math.max(1, window.endsAt - startedAt))].filter(
      (item): item is AbortSignal => item !== undefined,
    );
    let outcome: EngineOutcome;
    let again: Awaited<ReturnType<typeof analyse>>;
    try {
      outcome = await abortableRun(
        deps.engine,
        { ...request, numOutputImages: short.length, workKey: `${request.workKey}:identity-${round}` },
        AbortSignal.any(signals),
        undefined,
        keepTicket,
      );
      retries.calls += 1;
      if (outcome.kind !== 'images') break;
      again = await analyse(outcome.images);
    } catch (error) {
      if (signal?.aborted) throw error;
      break;
    }
    const cost = addCost(retries.providerCostMicros, outcome.usage);
    if (cost !== undefined) retries.providerCostMicros = cost;
    retries.usage = addUsage(retries.usage, outcome.usage);
    if (window) expectedAttemptMs = Math.max(expectedAttemptMs, window.clock() - startedAt);
    short.forEach((index, offset) => {
      const image = outcome.images[offset];
      if (!image) return;
      attempts[index] = (attempts[index] ?? 1) + 1;
      retries.outputs = (retries.outputs ?? 0) + 1;
      const candidate = again.found[offset] ?? [];
      if (better(standing(candidate, expected), standing(facesOf[index] ?? [], expected))) {
        delivered[index] = image;
        loraOf[index] = [...(outcome.kind === 'images' ? (outcome.carriedByLora ?? []) : [])];
        facesOf[index] = candidate;
        detectedOf[index] = again.detected[offset] ?? [];
      }
    });
  }

  const recognizedFaces = facesOf.flatMap((faces, outputIndex) => faces.map((face) => ({ ...face, outputIndex })));
  const everyone = request.candidates.map((candidate) => candidate.profileId);
  const carriedByOf = (outputIndex: number): Record<string, CarriedBy> =>
    Object.fromEntries(
      everyone.map((id) => [id, (loraOf[outputIndex] ?? []).includes(id) ? 'lora' : 'references'] as const),
    );
  return {
    images: delivered,
    recognition: recognitionOf(recognizedFaces),
    identity: {
      expected: request.candidates.map((candidate) => candidate.profileId),
      ...(notChecked.length > 0 && { notChecked }),
      outputs: facesOf.map((faces, outputIndex) => {
        const { kept } = standing(faces, expected);
        return {
          outputIndex,
          kept,
          missing: expected.filter((id) => !kept.includes(id)),
          attempts: attempts[outputIndex] ?? 1,
          ...(everyone.length > 0 && { carriedBy: carriedByOf(outputIndex) }),
        };
      }),
      ...((retries.outputs ?? 0) > 0 && { retriedOutputs: retries.outputs }),
    },
    retries,
  };
};
