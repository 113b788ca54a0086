/**
 * Read first: which face crops a Full Train profile keeps as references (its reference bank). A model that
 * takes no LoRA is shown who to keep by reference images, and a face is drawn best from references in
 * about its pose and light; so the bank covers the poses (yaw, pitch) and lightings the subject's photos
 * show, not only their best frontal faces. A greedy max-coverage choice (weighted facility location):
 * every usable photo is a pose to cover; a reference covers a photo by
 *   quality(reference) / best quality × exp(−bankDistance(photo, reference)² / 2)
 * (faces/pose.ts: 15° of yaw, 10° of pitch or 0.15 of luminance are one step; the quality is
 * photo-faces.ts's referenceScore), a photo counts what its best reference covers, and the bank's value is
 * the sum over the photos. The first reference is the best-scoring face (today's first reference and the
 * picture); each next one is the photo that adds the most value, until MAX_BANK_REFERENCES. The greedy
 * choice of a monotone submodular value is within 1 − 1/e of the best bank of its size.
 * Quick Train keeps today's set: the best MAX_REFERENCE_IMAGES by referenceScore (training.ts).
 */
import { bankDistance, type FacePose } from '../faces';

/** A Full Train profile keeps at most this many reference crops. */
export const MAX_BANK_REFERENCES = 8;

export interface BankCandidate {
  pose: FacePose;
  /** referenceScore (photo-faces.ts): sharp, frontal and large score higher. */
  quality: number;
}

/** Indexes into `faces` of the bank, in the order chosen (the best-scoring face first). */
export const chooseReferenceBank = (faces: readonly BankCandidate[], size = MAX_BANK_REFERENCES): number[] => {
  if (faces.length === 0 || size <= 0) return [];
  const bestQuality = Math.max(...faces.map((face) => face.quality));
  const weight = (index: number) => (bestQuality > 0 ? faces[index].quality / bestQuality : 1);
  const cover = (target: number, reference: number) =>
    weight(reference) * Math.exp(-(bankDistance(faces[target].pose, faces[reference].pose) ** 2) / 2);
  // How well each photo is covered by the bank so far.
  const covered = faces.map(() => 0);
  const chosen: number[] = [];
  const take = (reference: number) => {
    chosen.push(reference);
    for (const target of faces.keys()) covered[target] = Math.max(covered[target], cover(target, reference));
  };
  const first = [...faces.keys()].reduce((best, index) => (faces[index].quality > faces[best].quality ? index : best));
  take(first);
  while (chosen.length < Math.min(size, faces.length)) {
    let pick = { index: -1, gain: Number.NEGATIVE_INFINITY };
    for (const reference of faces.keys()) {
      if (chosen.includes(reference)) continue;
      let gain = 0;
      for (const target of faces.keys()) gain += Math.max(0, cover(target, reference) - covered[target]);
      // Equal gains (a photo already covered as well as it can be): the better face.
      if (
        gain > pick.gain + 1e-12 ||
        (Math.abs(gain - pick.gain) <= 1e-12 && faces[reference].quality > faces[pick.index].quality)
      )
        pick = { index: reference, gain };
    }
    take(pick.index);
  }
  return chosen;
};
