/**
 * Read first: which photos of a training set show someone else than the set's majority.
 * Each face is compared with the normalised mean of the others (leave one out); the least similar one
 * below the threshold is set aside and the rest compared again, until every remaining face agrees with
 * the others. What is set aside disagrees. When the faces that agree are not a strict majority (two
 * people in two photos, three in three, two and two), there is no majority to train on and every photo
 * is reported as disagreeing.
 */
import type { DetectedFace } from './face';
import { SAME_PERSON_THRESHOLD } from './thresholds';
import { cosine, normalisedMean } from './vectors';

export interface Consistency {
  /** Per face, in order: its cosine to the mean of the agreeing faces (itself left out). */
  similarities: number[];
  /** Indexes of the faces that disagree with the majority (all of them when there is none). */
  outliers: number[];
  /** False when no strict majority of the faces agrees. */
  hasMajority: boolean;
}

const similarityToOthers = (
  embeddings: readonly (readonly number[])[],
  index: number,
  group: ReadonlySet<number>,
): number => {
  const others = [...group].filter((other) => other !== index).map((other) => embeddings[other]);
  return others.length === 0 ? 1 : cosine(embeddings[index], normalisedMean(others));
};

export const consistency = (
  faces: readonly Pick<DetectedFace, 'embedding'>[],
  threshold = SAME_PERSON_THRESHOLD,
): Consistency => {
  const embeddings = faces.map((face) => face.embedding);
  const agreeing = new Set(embeddings.keys());
  while (agreeing.size > 1) {
    let worst = { index: -1, similarity: Number.POSITIVE_INFINITY };
    for (const index of agreeing) {
      const similarity = similarityToOthers(embeddings, index, agreeing);
      if (similarity < worst.similarity) worst = { index, similarity };
    }
    if (worst.similarity >= threshold) break;
    agreeing.delete(worst.index);
  }
  const similarities = embeddings.map((_, index) => similarityToOthers(embeddings, index, agreeing));
  const hasMajority = agreeing.size * 2 > embeddings.length;
  const outliers = [...embeddings.keys()].filter((index) => !hasMajority || !agreeing.has(index));
  return { similarities, outliers, hasMajority };
};
