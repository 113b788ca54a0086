/**
 * Read first: the training-set preflight (POST /profiles/preflight), free and without a profile.
 *
 * Every photo is fetched and decoded exactly as training's ValidatePhotos would (the same SSRF guard,
 * format sniffing and pixel-bomb checks), then measured (adapters/images/photo-analysis.ts). The answer
 * says, per photo, what was found and what may hurt the training, and overall whether `profiles/add`
 * with the same body would be accepted: its count within the tier's range (else 422), and every photo
 * usable (else the training would end ERROR), and enough of them showing one usable face of the same
 * person for the tier (photo-faces.ts, the rule training applies; else the training would end ERROR).
 * Per photo: the faces found, the box size, the blur measured on the face, the turn, and whether it is
 * the same person as the rest of the set (the odd one out is flagged). Warnings that do not stop a
 * training by themselves (a photo set aside, duplicates, blur, greyscale, extreme aspect) are reported
 * without refusing.
 *
 * Time is bounded, within API Gateway's 29 s: the reading has PREFLIGHT_BUDGET_MS (25 s); a photo not
 * checked by then is reported `not_checked`, neither usable nor failed, and the answer is not `accepted`
 * but says which photos to check again. Nothing waits for them: the answer leaves at the deadline.
 *
 * What reading a photo found is remembered for a day under a name for its exact bytes (an upload's id and
 * ETag, with the face model and this analysis' version: PreflightCache), so a preflight sent again as
 * photos arrive reads only the new ones; the set is judged together every time, which is cheap. A URL
 * has no such name without fetching it, so URLs are read every time.
 */
import { createHash } from 'node:crypto';
import type { DecodedImage, InputFormat } from '../engine/engine';
import { DomainError } from '../errors';
import type { DetectedFace, FaceAnalyzer, FaceBox } from '../faces';
import { type FaceProblem, faceProblemMessage, judgePhotoFaces, type PhotoFace } from './photo-faces';
import { MIN_USABLE_PHOTOS_BY_TIER, PHOTO_COUNT_BY_TIER, type TrainingTier } from './profile';
import { MIN_PHOTO_EDGE_PX, mapLimited } from './training';

export const PREFLIGHT_BUDGET_MS = 25_000;
/** Changes when what a read photo's record holds, or how it is measured, changes: older records are not used. */
export const PREFLIGHT_READ_VERSION = 1;
/**
 * Two photos whose difference hashes differ in at most this many of 64 bits are near-duplicates: a
 * resized, recompressed copy differs in 2-7, different photos in 20 or more.
 */
export const NEAR_DUPLICATE_BITS = 10;
/** A photo longer than this many times its width (or wider than its height) is an extreme crop. */
export const EXTREME_ASPECT = 2.5;

export interface PhotoMeasures {
  differenceHash: string;
  sharpness: number;
  blurry: boolean;
  greyscale: boolean;
}

export interface PreflightDeps {
  /**
   * The photo's bytes: a URL through the SSRF guard, an `upload:` reference from the account's own
   * uploads; a DomainError says why not.
   */
  fetchPhoto(source: string, label: string, signal: AbortSignal, accountId: string): Promise<Buffer>;
  /** The checks and decoding every input gets (format, pixel bombs, orientation); a DomainError says why not. */
  decodePhoto(bytes: Buffer, label: string): Promise<DecodedImage>;
  measure(photo: DecodedImage): Promise<PhotoMeasures>;
  faces: Pick<FaceAnalyzer, 'analyze'>;
  /** What photos were found to be, by a name for their exact bytes; absent, every photo is read. */
  cache?: PreflightCache;
  settings: {
    photoConcurrency: number;
    /** The reading's deadline (PREFLIGHT_BUDGET_MS unless a test shortens it). */
    budgetMs?: number;
  };
}

/** What reading one photo found: everything its report and the set's judgement need, without its pixels. */
export type PhotoRead =
  | {
      /** What the caller sent (a HEIC is `heif`, though its bytes are read as JPEG). */
      format: InputFormat;
      width: number;
      height: number;
      measures: PhotoMeasures;
      digest: string;
      faces: DetectedFace[];
    }
  | { fetched: boolean; error: string };

/**
 * Photos already read, by a name for their exact bytes. A cache that fails is a miss: it never fails a
 * preflight.
 */
export interface PreflightCache {
  /**
   * A name for the bytes the source stands for now (an upload's id and version, the face model, the
   * analysis' version), or undefined when there is none without reading them (a URL).
   */
  keyOf(source: string, accountId: string): Promise<string | undefined>;
  get(accountId: string, key: string): Promise<PhotoRead | undefined>;
  put(accountId: string, key: string, read: PhotoRead): Promise<void>;
}

export type WarningCode =
  | 'too_small'
  | 'duplicate'
  | 'near_duplicate'
  | 'blurry'
  | 'greyscale'
  | 'extreme_aspect'
  | FaceProblem;

/** What the face analysis found in one photo (null for a photo that could not be read). */
export interface PhotoFaceReport {
  /** How many faces were found. */
  count: number;
  /** Exactly one face, large, sharp and frontal enough, of the set's subject: the training would use it. */
  usable: boolean;
  /** The single face's box side in pixels (the smaller of width and height); null unless one face. */
  box_px: number | null;
  /** Every face found, in whole pixels of the photo as `width` x `height` give it (after EXIF rotation), largest detector score first. */
  boxes: FaceBox[];
  /** Blur measured on the aligned face (higher is sharper); null unless one face. */
  sharpness: number | null;
  yaw_degrees: number | null;
  /** Whether the face is the same person as the rest of the set; null when it was not compared. */
  same_person: boolean | null;
  /** Cosine similarity to the mean of the set's other faces; null when it was not compared. */
  similarity: number | null;
}

export interface PhotoReport {
  index: number;
  url: string;
  /** `not_checked`: the preflight's time ran out before this photo was read; send the preflight again. */
  status: 'checked' | 'not_checked';
  fetched: boolean;
  /** Why the photo could not be used as sent (not fetched, not an image, too large): training would fail on it. */
  error: string | null;
  format: string | null;
  width: number | null;
  height: number | null;
  face: PhotoFaceReport | null;
  warnings: Array<{ code: WarningCode; message: string }>;
}

export interface PreflightReport {
  training_tier: TrainingTier;
  /** Would `profiles/add` with this body be accepted and train? */
  accepted: boolean;
  /** Why not, each a sentence; empty when accepted. */
  problems: string[];
  /** Photos the training would use, and how many the tier needs. */
  usable_photos: number;
  needed_photos: number;
  photos: PhotoReport[];
}

type Read = PhotoRead | { notChecked: true };
const NOT_CHECKED = { notChecked: true } as const;

const rounded = (value: number, digits: number) => Number(value.toFixed(digits));

/** A detector's box in whole pixels, clipped to the photo (a box may reach just past its edges). */
const pixelBox = (box: FaceBox, photo: Pick<DecodedImage, 'width' | 'height'>): FaceBox => {
  const x = Math.min(photo.width - 1, Math.max(0, Math.round(box.x)));
  const y = Math.min(photo.height - 1, Math.max(0, Math.round(box.y)));
  const right = Math.min(photo.width, Math.max(x + 1, Math.round(box.x + box.width)));
  const bottom = Math.min(photo.height, Math.max(y + 1, Math.round(box.y + box.height)));
  return { x, y, width: right - x, height: bottom - y };
};

const faceReport = (
  judged: PhotoFace,
  faces: readonly DetectedFace[],
  photo: Pick<DecodedImage, 'width' | 'height'>,
): PhotoFaceReport => {
  const compared = judged.similarity !== null;
  return {
    count: judged.faceCount,
    usable: judged.problem === null,
    box_px: judged.face ? Math.round(Math.min(judged.face.box.width, judged.face.box.height)) : null,
    boxes: faces.map((face) => pixelBox(face.box, photo)),
    sharpness: judged.face ? rounded(judged.face.sharpness, 4) : null,
    yaw_degrees: judged.face ? Math.round(judged.face.yawDegrees) : null,
    same_person: judged.problem === 'other_person' ? false : compared ? true : null,
    similarity: judged.similarity === null ? null : rounded(judged.similarity, 3),
  };
};

const hammingDistance = (a: string, b: string): number => {
  let bits = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let count = 0;
  while (bits > 0n) {
    count += Number(bits & 1n);
    bits >>= 1n;
  }
  return count;
};

const readPhoto = async (
  deps: PreflightDeps,
  url: string,
  label: string,
  signal: AbortSignal,
  accountId: string,
): Promise<PhotoRead> => {
  let bytes: Buffer;
  try {
    bytes = await deps.fetchPhoto(url, label, signal, accountId);
  } catch (error) {
    if (error instanceof DomainError) return { fetched: false, error: error.message };
    throw error;
  }
  try {
    const photo = await deps.decodePhoto(bytes, label);
    return {
      format: photo.sourceFormat ?? photo.format,
      width: photo.width,
      height: photo.height,
      measures: await deps.measure(photo),
      digest: createHash('sha256').update(photo.data).digest('hex'),
      faces: await deps.faces.analyze(photo.data),
    };
  } catch (error) {
    if (error instanceof DomainError) return { fetched: true, error: error.message };
    throw error;
  }
};

/** What the cache knows of a source, and the name to remember it under; a failing cache knows nothing. */
const lookUp = async (
  cache: PreflightCache | undefined,
  source: string,
  accountId: string,
): Promise<{ key?: string; read?: PhotoRead }> => {
  if (!cache) return {};
  try {
    const key = await cache.keyOf(source, accountId);
    return key === undefined ? {} : { key, read: await cache.get(accountId, key) };
  } catch {
    return {};
  }
};

/**
 * Reads every photo the cache does not know, a few at a time, until the budget ends: then every photo not
 * yet read is NOT_CHECKED at once (a read under way goes on, and is remembered if it ends, but nothing
 * waits for it). A photo fetched is remembered, whatever it turned out to be; one not fetched is not (the
 * next preflight tries it again).
 */
const readAll = async (
  deps: PreflightDeps,
  request: { accountId: string; imageUrls: string[] },
  signal: AbortSignal,
): Promise<Read[]> => {
  const reads: Read[] = request.imageUrls.map(() => NOT_CHECKED);
  const timedOut = new Promise<typeof NOT_CHECKED>((resolve) => {
    if (signal.aborted) resolve(NOT_CHECKED);
    signal.addEventListener('abort', () => resolve(NOT_CHECKED), { once: true });
  });
  const known = await Promise.race([
    mapLimited(request.imageUrls, CACHE_CONCURRENCY, (url) => lookUp(deps.cache, url, request.accountId)),
    timedOut.then(() => request.imageUrls.map(() => ({}) as { key?: string; read?: PhotoRead })),
  ]);
  const unread: number[] = [];
  known.forEach((entry, index) => {
    if (entry.read) reads[index] = entry.read;
    else unread.push(index);
  });
  await mapLimited(unread, deps.settings.photoConcurrency, async (index) => {
    if (signal.aborted) return;
    const url = request.imageUrls[index];
    const reading = readPhoto(deps, url, `image_urls[${index}]`, signal, request.accountId).then(async (read) => {
      const key = known[index]?.key;
      if (key !== undefined && !('fetched' in read && !read.fetched))
        await deps.cache?.put(request.accountId, key, read).catch(() => undefined);
      return read;
    });
    // A read that fails after the deadline has no one to tell.
    reading.catch(() => undefined);
    reads[index] = await Promise.race([reading, timedOut]);
  });
  return reads;
};

/** Cache look-ups are small reads: more of them at once than photo reads. */
const CACHE_CONCURRENCY = 16;

export const preflight = async (
  deps: PreflightDeps,
  request: { accountId: string; imageUrls: string[]; trainingTier: TrainingTier },
): Promise<PreflightReport> => {
  const budget = new AbortController();
  const budgetMs = deps.settings.budgetMs ?? PREFLIGHT_BUDGET_MS;
  const timer = setTimeout(() => budget.abort(new Error('preflight budget')), budgetMs);
  let reads: Read[];
  try {
    reads = await readAll(deps, request, budget.signal);
  } finally {
    clearTimeout(timer);
  }

  // The faces of the photos that could be read, judged together as training judges them.
  const readable = reads.flatMap((read, index) => ('faces' in read ? [index] : []));
  const judged = judgePhotoFaces(readable.map((index) => (reads[index] as { faces: DetectedFace[] }).faces));
  const judgedAt = new Map(readable.map((index, position) => [index, judged[position]]));

  const photos = reads.map((read, index): PhotoReport => {
    const url = request.imageUrls[index];
    const label = `image_urls[${index}]`;
    if ('notChecked' in read)
      return {
        index,
        url,
        status: 'not_checked',
        fetched: false,
        error: null,
        format: null,
        width: null,
        height: null,
        face: null,
        warnings: [],
      };
    if ('error' in read)
      return {
        index,
        url,
        status: 'checked',
        fetched: read.fetched,
        error: read.error,
        format: null,
        width: null,
        height: null,
        face: null,
        warnings: [],
      };
    const { measures, digest } = read;
    const photo = read;
    const warnings: PhotoReport['warnings'] = [];
    const faces = judgedAt.get(index);
    if (faces?.problem) warnings.push({ code: faces.problem, message: faceProblemMessage(label, faces) });
    if (Math.min(photo.width, photo.height) < MIN_PHOTO_EDGE_PX) {
      warnings.push({
        code: 'too_small',
        message: `${label} is too small (${photo.width}x${photo.height}); photos need at least ${MIN_PHOTO_EDGE_PX} px on their short side.`,
      });
    }
    const earlier = reads.slice(0, index).findIndex((other) => 'digest' in other && other.digest === digest);
    const similar = reads
      .slice(0, index)
      .findIndex(
        (other) =>
          'measures' in other &&
          hammingDistance(other.measures.differenceHash, measures.differenceHash) <= NEAR_DUPLICATE_BITS,
      );
    if (earlier >= 0)
      warnings.push({
        code: 'duplicate',
        message: `${label} is the same photo as image_urls[${earlier}]; it teaches nothing new.`,
      });
    else if (similar >= 0)
      warnings.push({
        code: 'near_duplicate',
        message: `${label} is nearly the same photo as image_urls[${similar}]; varied photos train better.`,
      });
    if (measures.blurry)
      warnings.push({
        code: 'blurry',
        message: `${label} is very blurry (sharpness ${Math.round(measures.sharpness)}); sharp photos train better.`,
      });
    if (measures.greyscale)
      warnings.push({ code: 'greyscale', message: `${label} is greyscale; colour photos train better.` });
    const aspect = Math.max(photo.width, photo.height) / Math.min(photo.width, photo.height);
    if (aspect > EXTREME_ASPECT)
      warnings.push({
        code: 'extreme_aspect',
        message: `${label} is an extreme crop (${photo.width}x${photo.height}); the subject may be cut off.`,
      });
    return {
      index,
      url,
      status: 'checked',
      fetched: true,
      error: null,
      format: photo.format,
      width: photo.width,
      height: photo.height,
      face: faces ? faceReport(faces, read.faces, photo) : null,
      warnings,
    };
  });

  const problems: string[] = [];
  const range = PHOTO_COUNT_BY_TIER[request.trainingTier];
  if (request.imageUrls.length < range.min || request.imageUrls.length > range.max) {
    problems.push(
      `The ${request.trainingTier} tier takes ${range.min} to ${range.max} photos; this set has ${request.imageUrls.length} (profiles/add would answer 422).`,
    );
  }
  for (const photo of photos) {
    if (photo.error) problems.push(`${photo.error} (the training would end in ERROR)`);
    for (const warning of photo.warnings)
      if (warning.code === 'too_small') problems.push(`${warning.message} (the training would end in ERROR)`);
  }
  const unchecked = photos.filter((photo) => photo.status === 'not_checked');
  if (unchecked.length > 0)
    problems.push(
      `${unchecked.length} of ${photos.length} photos were not checked within the preflight's ${budgetMs / 1000} s (${unchecked.map((photo) => `image_urls[${photo.index}]`).join(', ')}); send the preflight again: the photos already checked are remembered.`,
    );
  const usable = photos.filter((photo) => photo.face?.usable).length;
  const needed = MIN_USABLE_PHOTOS_BY_TIER[request.trainingTier];
  // Photos not checked yet may still make up the number: only a set short even with all of them is said so.
  if (usable + unchecked.length < needed)
    problems.push(
      `Only ${usable} of ${request.imageUrls.length} photos show one usable face of the subject; the ${request.trainingTier} tier needs ${needed} (the training would end in ERROR).`,
    );
  return {
    training_tier: request.trainingTier,
    accepted: problems.length === 0,
    problems,
    usable_photos: usable,
    needed_photos: needed,
    photos,
  };
};
