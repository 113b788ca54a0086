import type { DetectedFace, FaceKind } from './face';
import { normalisedMean } from './vectors';

/** What a profile's training keeps of its faces: one embedding per usable photo and their mean direction. */
export interface FaceTemplate {
  /** The analyser's model id: the template is only compared with faces of the same model. */
  modelId: string;
  kind: FaceKind;
  /** Unit length: the normalised mean of `embeddings`. */
  mean: number[];
  embeddings: number[][];
}

/** The template of one subject's faces (one per photo, at least one, all of one kind). */
export const buildTemplate = (
  modelId: string,
  faces: readonly Pick<DetectedFace, 'kind' | 'embedding'>[],
): FaceTemplate => {
  if (faces.length === 0) throw new Error('a face template needs at least one face');
  const kind = faces[0].kind;
  if (faces.some((face) => face.kind !== kind)) throw new Error('a face template holds faces of one kind');
  const embeddings = faces.map((face) => [...face.embedding]);
  return { modelId, kind, mean: normalisedMean(embeddings), embeddings };
};

/** A template made by another model than the one analysing now must be re-embedded before it can match. */
export const isComparable = (template: Pick<FaceTemplate, 'modelId'>, modelId: string): boolean =>
  template.modelId === modelId;
