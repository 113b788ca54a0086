/**
 * The face analysis port: what a face analyser finds in an image and the two things it can do. The adapter
 * (functions/adapters/faces/) runs real models; the domain only compares the embeddings it returns.
 * Every embedding belongs to the space of one model: `modelId` names it, and embeddings of two models are
 * never compared (a template of another model is re-embedded, not matched).
 */

/** `person`: a human face. `animal`: the face detector fired but the face-landmark model rejected it (cats, dogs). */
export const FACE_KINDS = ['person', 'animal'] as const;
export type FaceKind = (typeof FACE_KINDS)[number];

/** A rectangle in pixels of the analysed image (after its EXIF orientation was applied). */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export type Point = readonly [x: number, y: number];

export interface DetectedFace {
  box: FaceBox;
  /** The detector's keypoints in image pixels, eyes first (then nose, mouth and, when given, the ears). */
  landmarks: Point[];
  /** The face detector's confidence, 0..1. */
  detectorScore: number;
  kind: FaceKind;
  /** The face-landmark model's confidence that this is a human face, 0..1; decides `kind`. */
  faceConfidence: number;
  /** Unit length; compare two with `cosine`. Only meaningful against embeddings of the same model id. */
  embedding: number[];
  /**
   * Blur measured on the aligned grey face crop at a fixed size (so comparable across face sizes): the
   * variance of its Laplacian over the variance of its grey levels. Higher is sharper.
   */
  sharpness: number;
  /** Head turn estimated from the landmarks: 0 frontal, ±90 profile (sign: towards the image's right is positive). */
  yawDegrees: number;
  /** Head tilt estimated from the landmarks: 0 level, positive chin up (face-geometry.ts, pitchDegreesOf). */
  pitchDegrees: number;
  /** Mean grey level of the inner half of the aligned face crop, 0..1: how the face is lit. */
  luminance: number;
}

export interface AnalyzeOptions {
  enough?: (faces: readonly DetectedFace[]) => boolean;
}

export interface FaceAnalyzer {
  /** Names the weights and the pipeline version; stored with every template. */
  readonly modelId: string;
  /**
   * Every face in an image sharp can read, already oriented; largest detector score first. With `enough`,
   * the faces are analysed largest first and the analysis stops as soon as `enough(faces so far)` is true
   * (who is present needs each candidate found once, not every face of a crowd).
   */
  analyze(image: Buffer, options?: AnalyzeOptions): Promise<DetectedFace[]>;
  /** The face cut square around its box (with margin), rotated so that the eyes are level: a JPEG of sizePx². */
  crop(image: Buffer, face: DetectedFace, sizePx: number): Promise<Buffer>;
}
