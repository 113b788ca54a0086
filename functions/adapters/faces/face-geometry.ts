/**
 * Pixel work of the face pipeline, without models: BlazeFace's anchors and box decoding, the aligned crop
 * (one bilinear pass from the full-resolution image, so no intermediate resize loses detail), the blur
 * measure, the head-turn and head-tilt estimates and the face's luminance.
 */
import type { Point } from '../../domain/faces';

/** An RGB image, 8 bits a channel, interleaved, row after row. */
export interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** A square region of the image, rotated by `angleRadians` around its centre. */
export interface CropRegion {
  centreX: number;
  centreY: number;
  side: number;
  angleRadians: number;
}

export interface DetectorCandidate {
  score: number;
  /** x1, y1, x2, y2 in image pixels. */
  corners: [number, number, number, number];
  landmarks: Point[];
}

/** BlazeFace (back model, 256 px input): 2 anchors a cell on a 16×16 grid, then 6 a cell on an 8×8 grid. */
export const DETECTOR_SIZE_PX = 256;
const ANCHORS: Point[] = [];
for (const [stride, perCell] of [
  [16, 2],
  [32, 6],
]) {
  const cells = DETECTOR_SIZE_PX / stride;
  for (let y = 0; y < cells; y += 1)
    for (let x = 0; x < cells; x += 1)
      for (let k = 0; k < perCell; k += 1) ANCHORS.push([stride * (x + 0.5), stride * (y + 0.5)]);
}
export const ANCHOR_COUNT = ANCHORS.length;

/**
 * The detector's input from its 256×256 RGB bytes: each value scaled to [-1, 1]. A plain function, not a
 * loop inside the analyser's async code: V8 does not optimise a running loop (OSR) in an async function,
 * so there these 196 608 values took ~10 ms in the interpreter on every analysis.
 */
export const detectorInput = (pixels: Uint8Array): Float32Array => {
  const input = new Float32Array(pixels.length);
  for (let index = 0; index < pixels.length; index += 1) input[index] = (pixels[index] ?? 0) / 127.5 - 1;
  return input;
};

/** Where the whole image sits inside the letterboxed detector input (scale and padding, in image pixels). */
export interface Letterbox {
  scale: number;
  padX: number;
  padY: number;
}

export const letterboxOf = (width: number, height: number): Letterbox => {
  const side = Math.max(width, height);
  return { scale: side / DETECTOR_SIZE_PX, padX: (side - width) / 2, padY: (side - height) / 2 };
};

const intersectionOverUnion = (a: DetectorCandidate['corners'], b: DetectorCandidate['corners']): number => {
  const width = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const height = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - width * height;
  return union > 0 ? (width * height) / union : 0;
};

/**
 * Decodes BlazeFace's raw outputs (per anchor: a score logit; centre, size and 6 keypoints as offsets in
 * detector pixels) into image coordinates, then keeps the best boxes that overlap no better one (NMS).
 * `scoreAt(i)` and `regressionAt(i)` read anchor i's logit and its 16 regression values.
 */
export const decodeDetections = (
  scoreAt: (anchor: number) => number,
  regressionAt: (anchor: number) => ArrayLike<number>,
  letterbox: Letterbox,
  options: { minScore: number; maxFaces: number; maxOverlap: number },
): DetectorCandidate[] => {
  const { scale, padX, padY } = letterbox;
  const toImage = (x: number, y: number): Point => [x * scale - padX, y * scale - padY];
  const candidates: DetectorCandidate[] = [];
  for (let anchor = 0; anchor < ANCHOR_COUNT; anchor += 1) {
    const score = 1 / (1 + Math.exp(-scoreAt(anchor)));
    if (score < options.minScore) continue;
    const r = regressionAt(anchor);
    const [anchorX, anchorY] = ANCHORS[anchor];
    const centreX = r[0] + anchorX;
    const centreY = r[1] + anchorY;
    const [x1, y1] = toImage(centreX - r[2] / 2, centreY - r[3] / 2);
    const [x2, y2] = toImage(centreX + r[2] / 2, centreY + r[3] / 2);
    const landmarks: Point[] = [];
    for (let k = 0; k < 6; k += 1) landmarks.push(toImage(r[4 + 2 * k] + anchorX, r[5 + 2 * k] + anchorY));
    candidates.push({ score, corners: [x1, y1, x2, y2], landmarks });
  }
  candidates.sort((a, b) => b.score - a.score);
  const kept: DetectorCandidate[] = [];
  for (const candidate of candidates) {
    if (kept.length >= options.maxFaces) break;
    if (kept.every((other) => intersectionOverUnion(other.corners, candidate.corners) <= options.maxOverlap))
      kept.push(candidate);
  }
  return kept;
};

/** The angle of the line from the leftmost eye to the other: rotating by it makes the eyes level. */
export const eyeAngle = (landmarks: readonly Point[]): number => {
  const [a, b] = landmarks[0][0] <= landmarks[1][0] ? [landmarks[0], landmarks[1]] : [landmarks[1], landmarks[0]];
  return Math.atan2(b[1] - a[1], b[0] - a[0]);
};

/** The crop human feeds its face models: the box enlarged 1.4 times, made square; `aligned` levels the eyes. */
export const cropRegionOf = (
  box: { x: number; y: number; width: number; height: number },
  landmarks: readonly Point[],
  aligned: boolean,
): CropRegion => ({
  centreX: box.x + box.width / 2,
  centreY: box.y + box.height / 2,
  side: 1.4 * Math.max(box.width, box.height),
  angleRadians: aligned ? eyeAngle(landmarks) : 0,
});

/**
 * Samples `region` into `out` as sizePx × sizePx interleaved RGB floats (0..255 times `scale`), bilinear,
 * 2×2 supersampled when the region is at least twice the output (so a large face is averaged, not
 * aliased). Outside the image is black, as TensorFlow's crop-and-resize fills it.
 */
export const sampleRegion = (
  image: RgbImage,
  region: CropRegion,
  sizePx: number,
  scale = 1,
  out = new Float32Array(sizePx * sizePx * 3),
): Float32Array => {
  const { data, width, height } = image;
  const { centreX, centreY, side, angleRadians } = region;
  const cos = Math.cos(angleRadians);
  const sin = Math.sin(angleRadians);
  const supersample = Math.max(1, Math.min(2, Math.round(side / sizePx)));
  const step = side / sizePx;
  const subStep = step / supersample;
  const weight = scale / (supersample * supersample);
  const row = width * 3;
  const half = side / 2;
  let o = 0;
  for (let v = 0; v < sizePx; v += 1) {
    for (let u = 0; u < sizePx; u += 1) {
      let red = 0;
      let green = 0;
      let blue = 0;
      for (let sy = 0; sy < supersample; sy += 1) {
        const dy = v * step + (sy + 0.5) * subStep - half;
        for (let sx = 0; sx < supersample; sx += 1) {
          const dx = u * step + (sx + 0.5) * subStep - half;
          const x = centreX + dx * cos - dy * sin - 0.5;
          const y = centreY + dx * sin + dy * cos - 0.5;
          const x0 = Math.floor(x);
          const y0 = Math.floor(y);
          const fx = x - x0;
          const fy = y - y0;
          if (x0 >= 0 && y0 >= 0 && x0 + 1 < width && y0 + 1 < height) {
            // All four neighbours inside (nearly every tap of a face's crop): straight from the buffer.
            const p = (y0 * width + x0) * 3;
            const q = p + row;
            const w00 = (1 - fx) * (1 - fy);
            const w10 = fx * (1 - fy);
            const w01 = (1 - fx) * fy;
            const w11 = fx * fy;
            red += w00 * data[p] + w10 * data[p + 3] + w01 * data[q] + w11 * data[q + 3];
            green += w00 * data[p + 1] + w10 * data[p + 4] + w01 * data[q + 1] + w11 * data[q + 4];
            blue += w00 * data[p + 2] + w10 * data[p + 5] + w01 * data[q + 2] + w11 * data[q + 5];
            continue;
          }
          for (let k = 0; k < 4; k += 1) {
            const xx = x0 + (k & 1);
            const yy = y0 + (k >> 1);
            if (xx < 0 || yy < 0 || xx >= width || yy >= height) continue;
            const w = (k & 1 ? fx : 1 - fx) * (k >> 1 ? fy : 1 - fy);
            const p = (yy * width + xx) * 3;
            red += w * data[p];
            green += w * data[p + 1];
            blue += w * data[p + 2];
          }
        }
      }
      out[o++] = red * weight;
      out[o++] = green * weight;
      out[o++] = blue * weight;
    }
  }
  return out;
};

/** BT.601 luma of one RGB pixel: the grey level both the embedding crop and the sharpness measure use. */
const lumaOf = (red: number, green: number, blue: number): number => 0.299 * red + 0.587 * green + 0.114 * blue;

/**
 * Replaces each pixel of an interleaved RGB crop by its luma (BT.601: 0.299 R + 0.587 G + 0.114 B) in all
 * three channels, in place, and returns the crop. The embedding sees the face's shape and shading, not its
 * colours: a provider's colour grade, a warm relight or a stylised palette no longer moves it. Measured
 * with FaceRes (model id b2 against b1): renders of the doubles missed at 0.70 in 12 of 420 cases instead
 * of 15, the closest stranger fell from 0.658 to 0.622; on the photo fixtures same-person pairs rose (p10
 * 0.757 → 0.788) while different people stayed where they were (max 0.648 → 0.649).
 */
export const toLuma = (crop: Float32Array): Float32Array => {
  for (let i = 0; i + 2 < crop.length; i += 3) {
    const luma = lumaOf(crop[i], crop[i + 1], crop[i + 2]);
    crop[i] = luma;
    crop[i + 1] = luma;
    crop[i + 2] = luma;
  }
  return crop;
};

/**
 * Blur of an aligned face crop (sizePx² RGB floats 0..255): the variance of the 4-neighbour Laplacian of
 * its grey levels over the variance of the grey levels, on the inner half of the crop (the face, not the
 * background the 1.4× margin adds). Dividing by the grey variance makes it independent of contrast and
 * lighting; measuring on a fixed-size crop makes it comparable across face sizes.
 */
export const sharpnessOf = (crop: Float32Array, sizePx: number): number => {
  const grey = new Float32Array(sizePx * sizePx);
  for (let i = 0; i < grey.length; i += 1) grey[i] = lumaOf(crop[3 * i], crop[3 * i + 1], crop[3 * i + 2]);
  const from = Math.floor(sizePx / 4);
  const to = sizePx - from;
  let count = 0;
  let sum = 0;
  let sumSquares = 0;
  let laplacianSum = 0;
  let laplacianSquares = 0;
  for (let y = from; y < to; y += 1) {
    for (let x = from; x < to; x += 1) {
      const i = y * sizePx + x;
      const laplacian = grey[i - 1] + grey[i + 1] + grey[i - sizePx] + grey[i + sizePx] - 4 * grey[i];
      count += 1;
      sum += grey[i];
      sumSquares += grey[i] * grey[i];
      laplacianSum += laplacian;
      laplacianSquares += laplacian * laplacian;
    }
  }
  const greyVariance = sumSquares / count - (sum / count) ** 2;
  const laplacianVariance = laplacianSquares / count - (laplacianSum / count) ** 2;
  return greyVariance > 1e-6 ? laplacianVariance / greyVariance : 0;
};

/**
 * Nose tip depth in front of the eyes as a fraction of half the distance between the eyes (an adult's is
 * about 20–25 mm against 31 mm): turning the head by θ moves the nose off the eyes' midpoint by
 * NOSE_DEPTH × tan θ half-eye-distances.
 */
const NOSE_DEPTH = 0.7;

/** Head turn from BlazeFace's keypoints (0, 1 eyes; 2 nose tip), in the frame where the eyes are level. */
export const yawDegreesOf = (landmarks: readonly Point[]): number => {
  const [eyeA, eyeB, nose] = landmarks;
  const angle = eyeAngle(landmarks);
  const midX = (eyeA[0] + eyeB[0]) / 2;
  const midY = (eyeA[1] + eyeB[1]) / 2;
  const halfEyeDistance = Math.hypot(eyeB[0] - eyeA[0], eyeB[1] - eyeA[1]) / 2;
  if (halfEyeDistance === 0) return 90;
  const along = (nose[0] - midX) * Math.cos(angle) + (nose[1] - midY) * Math.sin(angle);
  return (Math.atan(along / halfEyeDistance / NOSE_DEPTH) * 180) / Math.PI;
};

/**
 * Head tilt from BlazeFace's keypoints (0, 1 eyes; 2 nose tip; 3 mouth centre), a geometric estimate.
 * A rigid head model in units of half the eye distance (y down, z towards the camera): eyes at (±1, 0, 0),
 * nose tip at (0, NOSE_DROP, NOSE_DEPTH), mouth at (0, MOUTH_DROP, MOUTH_DEPTH). Tilting the chin up by φ
 * moves a point to y cos φ − z sin φ: the nose, further in front, rises towards the eyes faster than the
 * mouth does. In the frame where the eyes are level, the ratio r of the nose's drop below the eyes to the
 * mouth's is independent of the face's size and of its yaw (a turn moves points sideways only), and
 *   r = (NOSE_DROP cos φ − NOSE_DEPTH sin φ) / (MOUTH_DROP cos φ − MOUTH_DEPTH sin φ)
 *   ⇒ tan φ = (NOSE_DROP − r·MOUTH_DROP) / (NOSE_DEPTH − r·MOUTH_DEPTH).
 * MOUTH_DROP (≈ 68 mm below the pupils against a half eye distance of 31 mm) and MOUTH_DEPTH (the lips
 * ≈ 11 mm in front of the eyes) are an adult's proportions; NOSE_DROP is set so that a level face reads
 * 0: the ratio BlazeFace gives on the fixtures' frontal portraits (astronaut 0.55, man-a and man-b 0.58,
 * yale 0.57, the subject photos 0.53) is 0.56. Positive: chin up; negative: chin down.
 */
const MOUTH_DROP = 2.2;
const MOUTH_DEPTH = 0.35;
const LEVEL_NOSE_RATIO = 0.56;
const NOSE_DROP = LEVEL_NOSE_RATIO * MOUTH_DROP;

export const pitchDegreesOf = (landmarks: readonly Point[]): number => {
  const [eyeA, eyeB, nose, mouth] = landmarks;
  if (!mouth) return 0;
  const angle = eyeAngle(landmarks);
  const midX = (eyeA[0] + eyeB[0]) / 2;
  const midY = (eyeA[1] + eyeB[1]) / 2;
  // The component across the eye line (downwards in the levelled frame).
  const drop = (point: Point) => -(point[0] - midX) * Math.sin(angle) + (point[1] - midY) * Math.cos(angle);
  const mouthDrop = drop(mouth);
  if (mouthDrop <= 0) return 0; // no mouth below the eyes: no face to read a tilt from
  const ratio = drop(nose) / mouthDrop;
  return (Math.atan2(NOSE_DROP - ratio * MOUTH_DROP, NOSE_DEPTH - ratio * MOUTH_DEPTH) * 180) / Math.PI;
};

/** How a face is lit: the mean grey level (0..1) of the inner half of an aligned crop (sizePx² RGB floats 0..255), where sharpnessOf measures. */
export const luminanceOf = (crop: Float32Array, sizePx: number): number => {
  const from = Math.floor(sizePx / 4);
  const to = sizePx - from;
  let sum = 0;
  for (let y = from; y < to; y += 1)
    for (let x = from; x < to; x += 1) {
      const i = 3 * (y * sizePx + x);
      sum += lumaOf(crop[i], crop[i + 1], crop[i + 2]);
    }
  const count = (to - from) ** 2;
  return count > 0 ? sum / count / 255 : 0;
};

/**
 * The sample a region needs: aligned crops are taken from an image decoded `shrink` times smaller (1, 4 or
 * 8) while the smallest face's region keeps at least MIN_REGION_PX pixels, twice what the 224 px crop
 * samples, so no detail the crop could use is lost. Never 2: sharp decodes a JPEG at a smaller scale only
 * when it leaves at least a halving to its resampling kernel, so a halved image is a whole decode plus a
 * Lanczos pass (27 ms for a 2K photo here, against 15 ms for the whole decode and 12 ms for a quarter).
 */
export const MIN_REGION_PX = 2 * 224;
export const decodeShrinkFor = (smallestRegionPx: number): number => {
  if (smallestRegionPx / 8 >= MIN_REGION_PX) return 8;
  if (smallestRegionPx / 4 >= MIN_REGION_PX) return 4;
  return 1;
};
