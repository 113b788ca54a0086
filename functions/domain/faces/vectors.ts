/** Small vector arithmetic on embeddings (plain arrays: they are stored as JSON in templates). */

/** Cosine similarity; for unit vectors (every embedding and template mean) the dot product. */
export const cosine = (a: readonly number[], b: readonly number[]): number => {
  if (a.length !== b.length) throw new Error(`cannot compare embeddings of ${a.length} and ${b.length} dimensions`);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let index = 0; index < a.length; index += 1) {
    dot += a[index] * b[index];
    normA += a[index] * a[index];
    normB += b[index] * b[index];
  }
  const norms = Math.sqrt(normA * normB);
  return norms > 0 ? dot / norms : 0;
};

/** The vector scaled to unit length (a zero vector stays zero). */
export const normalise = (vector: readonly number[]): number[] => {
  const norm = Math.sqrt(vector.reduce((sum, value) => sum + value * value, 0));
  return norm > 0 ? vector.map((value) => value / norm) : [...vector];
};

/** The unit-length mean direction of some embeddings. */
export const normalisedMean = (vectors: readonly (readonly number[])[]): number[] => {
  if (vectors.length === 0) throw new Error('the mean of no embeddings');
  const sum = new Array<number>(vectors[0].length).fill(0);
  for (const vector of vectors) {
    if (vector.length !== sum.length) throw new Error('embeddings of different dimensions');
    for (let index = 0; index < sum.length; index += 1) sum[index] += vector[index];
  }
  return normalise(sum);
};
