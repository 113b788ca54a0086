/**
 * Read first: which photos of a training set teach the subject's face, the one rule that training and
 * preflight share. A photo is usable when the analyser finds exactly one face in it, at least
 * MIN_FACE_BOX_PX on its side, sharp enough (MIN_FACE_SHARPNESS, measured on the aligned face so that
 * it does not depend on the face's size) and turned at most MAX_FACE_YAW_DEGREES from the camera. Among
 * the usable photos, the faces of the majority kind (person, or animal for a pet) are checked for
 * consistency (domain/faces: leave one out against the others' mean): a face that disagrees is another
 * subject and is set aside. What remains trains the template.
 */
import { consistency, type DetectedFace, type FaceKind, MIN_FACE_SHARPNESS } from '../faces';

/**
 * A face smaller than this (its box's side, in pixels of the photo) is too small to train on. FaceRes
 * embeds an aligned 224 px crop of the box enlarged 1.4 times, so a 96 px box is upsampled 1.7 times;
 * the fixtures' lowest same-person similarities are faces of 30-50 px (thresholds.ts), while portraits
 * sent for training have boxes of 100-350 px (the NASA astronaut portrait, 512 px square: 105 px).
 */
export const MIN_FACE_BOX_PX = 96;

/**
 * A face turned further than this from the camera (the analyser's yaw estimate from its landmarks) is
 * turned away: a profile view embeds far from the frontal views a template is matched against. The
 * fixtures' portraits are within 35°, the turned heads of the group photos at 47-52°.
 */
export const MAX_FACE_YAW_DEGREES = 45;

export type FaceProblem =
  | 'no_face'
  | 'several_faces'
  | 'face_too_small'
  | 'face_blurry'
  | 'face_turned_away'
  | 'other_person';

export interface PhotoFace {
  /** The single face found, when there was exactly one. */
  face: DetectedFace | null;
  faceCount: number;
  /** Why the photo does not train; null when it does. */
  problem: FaceProblem | null;
  /** Cosine to the mean of the other training faces (null for a photo that never reached the comparison). */
  similarity: number | null;
}

/** What is wrong with the faces of one photo on its own (before comparing it with the others). */
export const faceProblemOf = (faces: readonly DetectedFace[]): FaceProblem | null => {
  if (faces.length === 0) return 'no_face';
  if (faces.length > 1) return 'several_faces';
  const [face] = faces;
  if (Math.min(face.box.width, face.box.height) < MIN_FACE_BOX_PX) return 'face_too_small';
  if (face.sharpness < MIN_FACE_SHARPNESS) return 'face_blurry';
  if (Math.abs(face.yawDegrees) > MAX_FACE_YAW_DEGREES) return 'face_turned_away';
  return null;
};

/** Per photo (in order): its face, and whether it trains or why not. */
export const judgePhotoFaces = (analysed: readonly (readonly DetectedFace[])[]): PhotoFace[] => {
  const judged: PhotoFace[] = analysed.map((faces) => ({
    face: faces.length === 1 ? faces[0] : null,
    faceCount: faces.length,
    problem: faceProblemOf(faces),
    similarity: null,
  }));
  const usable = judged.flatMap((photo, index) => (photo.problem === null && photo.face ? [index] : []));
  const kindCount = (kind: FaceKind) => usable.filter((index) => judged[index].face?.kind === kind).length;
  const kind: FaceKind = kindCount('animal') > kindCount('person') ? 'animal' : 'person';
  for (const index of usable) if (judged[index].face?.kind !== kind) judged[index].problem = 'other_person';
  const sameKind = usable.filter((index) => judged[index].problem === null);
  const faces = sameKind.flatMap((index) => {
    const face = judged[index].face;
    return face ? [face] : [];
  });
  const checked = consistency(faces);
  sameKind.forEach((index, position) => {
    judged[index].similarity = checked.similarities[position];
    if (checked.outliers.includes(position)) judged[index].problem = 'other_person';
  });
  return judged;
};

/** How good a usable face is as a reference: sharp, frontal and large, each capped so that none dominates. */
export const referenceScore = (face: DetectedFace): number =>
  Math.min(face.sharpness / 0.05, 1) +
  (1 - Math.min(Math.abs(face.yawDegrees) / MAX_FACE_YAW_DEGREES, 1)) +
  Math.min(Math.min(face.box.width, face.box.height) / 300, 1);

/** The sentence a report gives for a photo's problem. */
export const faceProblemMessage = (label: string, photo: PhotoFace): string => {
  const face = photo.face;
  switch (photo.problem) {
    case 'no_face':
      return `${label} shows no face.`;
    case 'several_faces':
      return `${label} shows ${photo.faceCount} faces; a training photo shows the subject alone.`;
    case 'face_too_small':
      return `${label}: the face is too small (${Math.round(Math.min(face?.box.width ?? 0, face?.box.height ?? 0))} px; at least ${MIN_FACE_BOX_PX} px).`;
    case 'face_blurry':
      return `${label}: the face is too blurry (sharpness ${(face?.sharpness ?? 0).toFixed(4)}; at least ${MIN_FACE_SHARPNESS}).`;
    case 'face_turned_away':
      return `${label}: the face is turned away (${Math.round(Math.abs(face?.yawDegrees ?? 0))}°; at most ${MAX_FACE_YAW_DEGREES}°).`;
    case 'other_person':
      return `${label} shows someone other than the rest of the set.`;
    case null:
      return `${label} is usable.`;
  }
};
