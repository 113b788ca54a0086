/**
 * Read first: how the provider doubles (and the HTTP engine's double) draw people, as a real image model
 * would: never the reference crop they were sent, pixel for pixel, but **another photo of the same person**
 * where the committed fixtures have one (test/fixtures/faces/SOURCES.md), otherwise the crop itself
 * redrawn: warped (perspective, shear), turned (rotation, a yaw-like squeeze), relit (gamma, brightness, a
 * light from one side), colour-graded, stylised (posterise, median, blur), made small (a face about 64 px
 * wide), JPEG-compressed, and placed anywhere in a seeded scene. Recognition of a profile in a double's
 * output then says something: it passes only where a real model's redraw of the person would too.
 *
 * Who a reference crop shows: each input image is analysed (the real face analyser, cached by content
 * hash), and each person face in it is compared with the fixture faces (FIXTURE_PEOPLE, analysed once per
 * process); the nearest at a cosine ≥ SAME_PERSON_THRESHOLD is that person. A face of nobody in the
 * fixtures is redrawn from its own pixels (never unchanged). The analyser needs onnxruntime in the host's
 * realm: a jest file whose doubles receive images runs in test/faces/onnx-environment.js.
 *
 * Deterministic: every choice comes from `seed` (the doubles hash the prompt, the input images and their
 * own request counter), so one test run draws the same bytes every time.
 *
 * Prompt triggers (DOUBLE_TRIGGERS, anywhere in the prompt): `[double:drift]` draws someone else (a
 * fixture person who is none of the references), `[double:no-face]` draws the scene with no face at all.
 * The option `driftRate` (0..1) makes each output drift with that seeded probability, for benches.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { createOnnxFaceAnalyzer } from '../../../functions/adapters/faces/onnx-face-analyzer';
import { cosine, type DetectedFace, SAME_PERSON_THRESHOLD } from '../../../functions/domain/faces';

/** Words a test puts in a prompt to make a double misbehave as a model might. */
export const DOUBLE_TRIGGERS = { drift: '[double:drift]', noFace: '[double:no-face]' } as const;

export const FACE_TRANSFORMS = [
  'other_photo',
  'warp',
  'turn',
  'relight',
  'grade',
  'stylise',
  'small_64',
  'jpeg',
  'combined',
] as const;
export type FaceTransform = (typeof FACE_TRANSFORMS)[number];

const FIXTURES_DIR = path.join(__dirname, '..', '..', 'fixtures', 'faces');

/**
 * The fixture people, each with the faces (file and index in the analyser's order) that are photos of
 * them. Several photos: Yale's man (three lightings), Messi (two photos, small faces), the man of
 * facematch-man.jpg (nine photos). One photo: the others. Left out: sample3 face 2 (probably sample1 face
 * 2, at 0.66) and the third, landmarked copy of man-three-times.
 */
export const FIXTURE_PEOPLE: Record<string, { file: string; face: number }[]> = {
  yale: [0, 1, 2].map((face) => ({ file: 'yale-lightings.jpg', face })),
  messi: [
    { file: 'messi5.jpg', face: 0 },
    { file: 'messi-face.jpg', face: 0 },
  ],
  'facematch-man': [0, 1, 2, 3, 4, 5, 6, 7, 8].map((face) => ({ file: 'facematch-man.jpg', face })),
  astronaut: [{ file: 'astronaut.jpg', face: 0 }],
  'man-a': [{ file: 'man-a.jpg', face: 0 }],
  'man-b': [{ file: 'man-b.jpg', face: 0 }],
  'man-three-times': [{ file: 'man-three-times.jpg', face: 0 }],
  ...Object.fromEntries([0, 1, 2].map((face) => [`three-men-${face + 1}`, [{ file: 'three-men.jpg', face }]] as const)),
  ...Object.fromEntries(
    [3, 3, 3, 4, 5, 4].flatMap((count, photo) =>
      Array.from({ length: count }, (_, face) => face)
        .filter((face) => !(photo === 2 && face === 1))
        .map((face) => [`sample${photo + 1}-${face + 1}`, [{ file: `group-sample${photo + 1}.jpg`, face }]] as const),
    ),
  ),
};

export interface FixtureFace {
  person: string;
  /** `file#index`. */
  photo: string;
  embedding: number[];
  /** The face with room around it, square, and the face box's width as a fraction of its side. */
  portrait: Buffer;
  faceFraction: number;
}

const analyzer = createOnnxFaceAnalyzer();
const PORTRAIT_SCALE = 1.8;
/** The reference crops training stores: the face box enlarged 1.4 times (face-geometry's crop region). */
const CROP_FACE_FRACTION = 1 / 1.4;
const WORK_PX = 320;

const portraitAround = async (photo: Buffer, face: DetectedFace): Promise<Buffer> => {
  const { width = 0, height = 0 } = await sharp(photo).metadata();
  const side = Math.floor(Math.min(Math.max(face.box.width, face.box.height) * PORTRAIT_SCALE, width, height));
  const centreX = face.box.x + face.box.width / 2;
  const centreY = face.box.y + face.box.height / 2;
  const left = Math.round(Math.min(Math.max(0, centreX - side / 2), width - side));
  const top = Math.round(Math.min(Math.max(0, centreY - side / 2), height - side));
  return sharp(photo)
    .extract({ left, top, width: side, height: side })
    .resize(WORK_PX, WORK_PX)
    .removeAlpha()
    .png()
    .toBuffer();
};

let library: Promise<FixtureFace[]> | undefined;

/** Every fixture face of FIXTURE_PEOPLE, analysed once per process. */
export const fixtureFaces = (): Promise<FixtureFace[]> => {
  library ??= (async () => {
    const byFile = new Map<string, { person: string; face: number }[]>();
    for (const [person, photos] of Object.entries(FIXTURE_PEOPLE)) {
      for (const { file, face } of photos) byFile.set(file, [...(byFile.get(file) ?? []), { person, face }]);
    }
    const faces: FixtureFace[] = [];
    for (const [file, wanted] of byFile) {
      const photo = fs.readFileSync(path.join(FIXTURES_DIR, file));
      const found = await analyzer.analyze(photo);
      for (const { person, face } of wanted) {
        const detected = found[face];
        if (!detected) throw new Error(`face renderer: ${file} has no face ${face}`);
        faces.push({
          person,
          photo: `${file}#${face}`,
          embedding: detected.embedding,
          portrait: await portraitAround(photo, detected),
          faceFraction: 1 / PORTRAIT_SCALE,
        });
      }
    }
    return faces;
  })();
  library.catch(() => {
    library = undefined;
  });
  return library;
};

/** A person face found in an input image, and who of the fixture people it is (null: nobody known). */
export interface IdentifiedFace {
  person: string | null;
  /** The fixture photo it is nearest to, and how near: ≥ 0.9 is that very photo. */
  nearestPhoto: string | null;
  similarity: number;
  face: DetectedFace;
  /** The input image it was found in. */
  image: Buffer;
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const identified = new Map<string, Promise<IdentifiedFace[]>>();

/** The person faces of `image`, each matched to the fixture people (cached by the image's hash). */
export const identifyFaces = (image: Buffer): Promise<IdentifiedFace[]> => {
  const key = sha256(image);
  let pending = identified.get(key);
  if (!pending) {
    pending = (async () => {
      const [known, found] = await Promise.all([fixtureFaces(), analyzer.analyze(image)]);
      return found
        .filter((face) => face.kind === 'person')
        .map((face) => {
          let best: FixtureFace | undefined;
          let similarity = Number.NEGATIVE_INFINITY;
          for (const candidate of known) {
            const value = cosine(face.embedding, candidate.embedding);
            if (value > similarity) [best, similarity] = [candidate, value];
          }
          const person = best && similarity >= SAME_PERSON_THRESHOLD ? best.person : null;
          return { person, nearestPhoto: best?.photo ?? null, similarity, face, image };
        });
    })();
    pending.catch(() => identified.delete(key));
    identified.set(key, pending);
  }
  return pending;
};

// ---- seeded choices ----

/** A seed from the parts of a request (strings, numbers, bytes). */
export const requestSeed = (...parts: (string | number | Buffer | undefined)[]): string => {
  const hash = createHash('sha256');
  for (const part of parts) {
    hash.update(Buffer.isBuffer(part) ? sha256(part) : String(part ?? ''));
    hash.update('\u0000');
  }
  return hash.digest('hex');
};

export interface Random {
  next(): number;
  between(low: number, high: number): number;
  pick<T>(items: readonly T[]): T;
  chance(probability: number): boolean;
}

/** mulberry32 seeded from sha256(seed, salt). */
export const seededRandom = (seed: string, salt = ''): Random => {
  let state = Number.parseInt(sha256(`${seed}:${salt}`).slice(0, 8), 16) >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    between: (low, high) => low + (high - low) * next(),
    pick: (items) => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('pick from nothing');
      return item;
    },
    chance: (probability) => next() < probability,
  };
};

// ---- pixel work on a square RGB portrait ----

interface Raw {
  data: Buffer;
  side: number;
}

const toRaw = async (image: Buffer, side = WORK_PX): Promise<Raw> => {
  const data = await sharp(image).removeAlpha().resize(side, side).toColourspace('srgb').raw().toBuffer();
  return { data, side };
};

const fromRaw = (raw: Raw) => sharp(raw.data, { raw: { width: raw.side, height: raw.side, channels: 3 } });

/** Resamples through `source(x, y)` → where to read (bilinear, edges clamped, so no black corners). */
const remap = (raw: Raw, source: (x: number, y: number) => [number, number]): Raw => {
  const { side, data } = raw;
  const out = Buffer.alloc(data.length);
  for (let y = 0; y < side; y += 1) {
    for (let x = 0; x < side; x += 1) {
      const [sx, sy] = source(x, y);
      const cx = Math.min(side - 1.001, Math.max(0, sx));
      const cy = Math.min(side - 1.001, Math.max(0, sy));
      const x0 = Math.floor(cx);
      const y0 = Math.floor(cy);
      const fx = cx - x0;
      const fy = cy - y0;
      const a = (y0 * side + x0) * 3;
      const b = a + side * 3;
      const o = (y * side + x) * 3;
      for (let c = 0; c < 3; c += 1) {
        const top = (data[a + c] ?? 0) * (1 - fx) + (data[a + 3 + c] ?? 0) * fx;
        const bottom = (data[b + c] ?? 0) * (1 - fx) + (data[b + 3 + c] ?? 0) * fx;
        out[o + c] = Math.round(top * (1 - fy) + bottom * fy);
      }
    }
  }
  return { data: out, side };
};

/** Solves the homography that takes the unit square's corners to `corners` (x, y in 0..1). */
const homography = (corners: [number, number][]): number[] => {
  // Heckbert's closed form for the square → quadrilateral mapping.
  const [[x0, y0], [x1, y1], [x2, y2], [x3, y3]] = corners as [
    [number, number],
    [number, number],
    [number, number],
    [number, number],
  ];
  const dx1 = x1 - x2;
  const dx2 = x3 - x2;
  const dy1 = y1 - y2;
  const dy2 = y3 - y2;
  const sx = x0 - x1 + x2 - x3;
  const sy = y0 - y1 + y2 - y3;
  const det = dx1 * dy2 - dx2 * dy1;
  const g = (sx * dy2 - dx2 * sy) / det;
  const h = (dx1 * sy - sx * dy1) / det;
  return [x1 - x0 + g * x1, x3 - x0 + h * x3, x0, y1 - y0 + g * y1, y3 - y0 + h * y3, y0, g, h];
};

/** Perspective (corners moved up to `amount` of the side) and shear. */
const warp = (raw: Raw, random: Random, amount: number): Raw => {
  const jitter = () => random.between(-amount, amount);
  // Corners in order (0,0), (1,0), (1,1), (0,1): where each source corner is read from.
  const [a, b, c, d, e, f, g, h] = homography([
    [jitter(), jitter()],
    [1 + jitter(), jitter()],
    [1 + jitter(), 1 + jitter()],
    [jitter(), 1 + jitter()],
  ]) as [number, number, number, number, number, number, number, number];
  const shear = random.between(-amount, amount);
  const side = raw.side;
  return remap(raw, (x, y) => {
    const u = x / side + shear * (y / side - 0.5);
    const v = y / side;
    const w = g * u + h * v + 1;
    return [((a * u + b * v + c) / w) * side, ((d * u + e * v + f) / w) * side];
  });
};

/** In-plane rotation and a yaw-like squeeze (one half of the face narrower, the other wider). */
const turn = (raw: Raw, random: Random, degrees: number, squeeze: number): Raw => {
  const angle = (random.pick([-1, 1]) * random.between(degrees / 2, degrees) * Math.PI) / 180;
  const power = 1 + random.pick([-1, 1]) * random.between(squeeze / 2, squeeze);
  const side = raw.side;
  const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
  return remap(raw, (x, y) => {
    const u = (x / side) ** power * side;
    const dx = u - side / 2;
    const dy = y - side / 2;
    return [side / 2 + cos * dx - sin * dy, side / 2 + sin * dx + cos * dy];
  });
};

/** Applies `change` to every pixel; it writes the new colour into `rgb` (0..255, clamped here). */
const perPixel = (raw: Raw, change: (rgb: number[], x: number, y: number) => void): Raw => {
  const out = Buffer.alloc(raw.data.length);
  const rgb = [0, 0, 0];
  for (let y = 0; y < raw.side; y += 1) {
    for (let x = 0; x < raw.side; x += 1) {
      const at = (y * raw.side + x) * 3;
      rgb[0] = raw.data[at] ?? 0;
      rgb[1] = raw.data[at + 1] ?? 0;
      rgb[2] = raw.data[at + 2] ?? 0;
      change(rgb, x, y);
      for (let c = 0; c < 3; c += 1) out[at + c] = Math.max(0, Math.min(255, Math.round(rgb[c] ?? 0)));
    }
  }
  return { data: out, side: raw.side };
};

const setRgb = (rgb: number[], r: number, g: number, b: number) => {
  rgb[0] = r;
  rgb[1] = g;
  rgb[2] = b;
};

/** Gamma, brightness, and a light falling from one side. */
const relight = (raw: Raw, random: Random, strength: number): Raw => {
  const gamma = Math.exp(random.between(-strength, strength) * 0.6);
  const brightness = 1 + random.between(-strength, strength) * 0.35;
  const angle = random.between(0, 2 * Math.PI);
  const [lx, ly] = [Math.cos(angle), Math.sin(angle)];
  const slope = strength * 0.5;
  const curve = Array.from({ length: 256 }, (_, value) => 255 * (value / 255) ** gamma);
  return perPixel(raw, (rgb, x, y) => {
    const along = ((x / raw.side - 0.5) * lx + (y / raw.side - 0.5) * ly) * 2;
    const light = brightness * (1 + slope * along);
    for (let c = 0; c < 3; c += 1) rgb[c] = (curve[rgb[c] ?? 0] ?? 0) * light;
  });
};

/** A colour grade: warm or cool, more or less saturated, sometimes sepia or grey. */
const grade = (raw: Raw, random: Random, strength: number): Raw => {
  const look = random.pick(['temperature', 'temperature', 'sepia', 'grey', 'teal-orange'] as const);
  const warmth = random.between(-strength, strength) * 0.25;
  const saturation = 1 + random.between(-strength, strength) * 0.6;
  return perPixel(raw, (rgb) => {
    const [r = 0, g = 0, b = 0] = rgb;
    const luma = 0.299 * r + 0.587 * g + 0.114 * b;
    const sat = (value: number) => luma + (value - luma) * saturation;
    if (look === 'sepia') setRgb(rgb, luma * 1.07 + 20 * strength, luma * 0.95 + 8 * strength, luma * 0.78);
    else if (look === 'grey') setRgb(rgb, luma, luma, luma);
    else if (look === 'teal-orange' && luma > 128)
      setRgb(rgb, sat(r) * (1 + 0.12 * strength), sat(g), sat(b) * (1 - 0.12 * strength));
    else if (look === 'teal-orange')
      setRgb(rgb, sat(r) * (1 - 0.1 * strength), sat(g) * (1 + 0.04 * strength), sat(b) * (1 + 0.14 * strength));
    else setRgb(rgb, sat(r) * (1 + warmth), sat(g), sat(b) * (1 - warmth));
  });
};

/** Posterised, median-filtered (paint-like) or blurred. */
const stylise = async (raw: Raw, random: Random, strength: number): Promise<Raw> => {
  const style = random.pick(['posterise', 'paint', 'blur'] as const);
  if (style === 'posterise') {
    const levels = Math.round(8 - 3 * strength);
    const step = 255 / (levels - 1);
    return perPixel(raw, (rgb) => {
      for (let c = 0; c < 3; c += 1) rgb[c] = Math.round((rgb[c] ?? 0) / step) * step;
    });
  }
  if (style === 'paint') {
    const data = await fromRaw(raw)
      .median(Math.max(3, Math.round(3 + 4 * strength) | 1))
      .raw()
      .toBuffer();
    return perPixel({ data, side: raw.side }, (rgb) => {
      for (let c = 0; c < 3; c += 1) rgb[c] = Math.round((rgb[c] ?? 0) / 24) * 24;
    });
  }
  const data = await fromRaw(raw)
    .blur(0.8 + 1.6 * strength)
    .raw()
    .toBuffer();
  return { data, side: raw.side };
};

const jpegOf = async (raw: Raw, quality: number): Promise<Raw> =>
  toRaw(await fromRaw(raw).jpeg({ quality }).toBuffer(), raw.side);

// ---- one face, drawn ----

/** Where a face comes from: its pixels (square) and the face box's width as a fraction of the side. */
export interface FaceSource {
  portrait: Buffer;
  faceFraction: number;
}

export interface DrawnFace {
  person: string | null;
  drift: boolean;
  /** The transforms applied, in order ('other_photo' when another photo was the source). */
  transforms: FaceTransform[];
  /** Where the portrait went in the output (the face is about `faceFraction` of it, centred). */
  box: { x: number; y: number; width: number; height: number };
  /** The face's width in the output, px. */
  facePx: number;
}

/** The steps one transform (or the doubles' usual mix) applies; `small` is applied at placement. */
interface Plan {
  steps: Exclude<FaceTransform, 'other_photo' | 'combined' | 'small_64'>[];
  strength: number;
  small: boolean;
}

const planOf = (transform: FaceTransform, fromCrop: boolean): Plan => {
  switch (transform) {
    case 'other_photo':
      // Another photo, drawn as it is; from the crop itself (no other photo) at least a mild warp.
      return { steps: fromCrop ? ['warp'] : [], strength: 0.4, small: false };
    case 'small_64':
      return { steps: [], strength: 0, small: true };
    case 'combined':
      return { steps: ['warp', 'turn', 'relight', 'grade', 'stylise', 'jpeg'], strength: 0.6, small: false };
    case 'warp':
    case 'turn':
    case 'relight':
    case 'grade':
    case 'stylise':
    case 'jpeg':
      return { steps: [transform], strength: 1, small: false };
  }
};

/** The doubles' usual draw: a seeded mix of mild transforms, at least one geometric when from the crop. */
const usualPlan = (random: Random, fromCrop: boolean): Plan => {
  const steps: Plan['steps'] = [];
  if (fromCrop || random.chance(0.5)) steps.push(random.pick(['warp', 'turn'] as const));
  for (const step of ['relight', 'grade', 'stylise', 'jpeg'] as const) if (random.chance(0.4)) steps.push(step);
  return { steps, strength: random.between(0.3, 0.7), small: false };
};

const applySteps = async (source: FaceSource, plan: Plan, random: Random): Promise<Raw> => {
  let raw = await toRaw(source.portrait);
  for (const step of plan.steps) {
    const s = plan.strength;
    if (step === 'warp') raw = warp(raw, random, 0.04 + 0.08 * s);
    else if (step === 'turn') raw = turn(raw, random, 6 + 16 * s, 0.15 + 0.35 * s);
    else if (step === 'relight') raw = relight(raw, random, s);
    else if (step === 'grade') raw = grade(raw, random, s);
    else if (step === 'stylise') raw = await stylise(raw, random, s);
    else if (step === 'jpeg') raw = await jpegOf(raw, Math.round(35 - 20 * s));
  }
  return raw;
};

/** A feathered ellipse: the drawn face blends into the scene instead of sitting in a square. */
const ellipseMask = (side: number): Buffer => {
  const mask = Buffer.alloc(side * side);
  const radius = side / 2;
  const feather = 0.18;
  for (let y = 0; y < side; y += 1) {
    for (let x = 0; x < side; x += 1) {
      const distance = Math.hypot((x + 0.5 - radius) / radius, (y + 0.5 - radius) / (radius * 1.0));
      const alpha = distance <= 1 - feather ? 1 : distance >= 1 ? 0 : (1 - distance) / feather;
      mask[y * side + x] = Math.round(255 * alpha);
    }
  }
  return mask;
};

/** A smooth seeded field of colours (raw RGB): the scene every output starts from. */
const scene = async (width: number, height: number, random: Random): Promise<Buffer> => {
  const cells = Buffer.alloc(4 * 4 * 3);
  const base = [random.between(40, 200), random.between(40, 200), random.between(40, 200)];
  for (let index = 0; index < cells.length; index += 1) {
    cells[index] = Math.round(Math.max(0, Math.min(255, (base[index % 3] ?? 0) + random.between(-60, 60))));
  }
  return sharp(cells, { raw: { width: 4, height: 4, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer();
};

interface Placement {
  /** Raw RGBA, side × side. */
  input: Buffer;
  left: number;
  top: number;
  drawn: DrawnFace;
}

const place = async (
  raw: Raw,
  source: FaceSource,
  plan: Plan,
  slot: { x: number; width: number },
  height: number,
  random: Random,
  drawn: Omit<DrawnFace, 'box' | 'facePx'>,
): Promise<Placement> => {
  const shortSide = Math.min(slot.width, height);
  // A face 64 px wide when small; otherwise 14–40 % of the slot's shorter side (a model's portrait).
  const facePx = plan.small ? 64 : Math.round(shortSide * random.between(0.14, 0.4));
  const side = Math.max(8, Math.min(Math.round(facePx / source.faceFraction), slot.width, height));
  const resized = await fromRaw(raw).resize(side, side, { kernel: 'lanczos3' }).raw().toBuffer();
  const input = await sharp(resized, { raw: { width: side, height: side, channels: 3 } })
    .joinChannel(ellipseMask(side), { raw: { width: side, height: side, channels: 1 } })
    .raw()
    .toBuffer();
  const left = Math.round(slot.x + random.between(0, slot.width - side));
  const top = Math.round(random.between(0, height - side));
  return {
    input,
    left,
    top,
    drawn: {
      ...drawn,
      box: { x: left, y: top, width: side, height: side },
      facePx: Math.round(side * source.faceFraction),
    },
  };
};

// ---- the API ----

export interface RenderRequest {
  width: number;
  height: number;
  format: 'png' | 'jpeg' | 'webp';
  /** From the request (requestSeed): every choice follows from it. */
  seed: string;
  prompt: string;
  /** The images the double received, reference crops included, in order. */
  inputs: Buffer[];
  /** Each output draws someone else with this probability (seeded), 0 by default. */
  driftRate?: number;
  /** One transform for every face (benches); by default a seeded mix, from another photo where there is one. */
  transform?: FaceTransform;
}

export interface RenderedOutput {
  data: Buffer;
  faces: DrawnFace[];
}

/** The people to draw: one per known person of the inputs, and each unknown face once. */
const subjectsOf = async (inputs: Buffer[]): Promise<IdentifiedFace[]> => {
  const subjects: IdentifiedFace[] = [];
  for (const image of inputs) {
    for (const face of await identifyFaces(image)) {
      if (face.person !== null && subjects.some((subject) => subject.person === face.person)) continue;
      subjects.push(face);
    }
  }
  return subjects.slice(0, 4);
};

/** The source a face is drawn from: another photo of the person when the fixtures have one. */
const sourceFor = async (
  subject: IdentifiedFace | { person: string },
  random: Random,
  wantOther: boolean,
): Promise<{ source: FaceSource; other: boolean }> => {
  const known = await fixtureFaces();
  if (subject.person !== null && wantOther) {
    const nearest = 'nearestPhoto' in subject && subject.similarity >= 0.9 ? subject.nearestPhoto : null;
    const others = known.filter((face) => face.person === subject.person && face.photo !== nearest);
    if (others.length > 0) {
      const chosen = random.pick(others);
      return { source: { portrait: chosen.portrait, faceFraction: chosen.faceFraction }, other: true };
    }
  }
  if ('face' in subject) {
    return {
      source: { portrait: await portraitOfFace(subject), faceFraction: CROP_FACE_FRACTION },
      other: false,
    };
  }
  const any = known.find((face) => face.person === subject.person);
  if (!any) throw new Error(`face renderer: no fixture person ${subject.person}`);
  return { source: { portrait: any.portrait, faceFraction: any.faceFraction }, other: false };
};

const ownPortraits = new Map<string, Promise<Buffer>>();

/** The received face's own pixels, square, as training's crop frames it (cached by image and face). */
const portraitOfFace = (subject: IdentifiedFace): Promise<Buffer> => {
  const key = `${sha256(subject.image)}:${subject.face.box.x}:${subject.face.box.y}`;
  let pending = ownPortraits.get(key);
  if (!pending) {
    pending = analyzer.crop(subject.image, subject.face, WORK_PX);
    pending.catch(() => ownPortraits.delete(key));
    ownPortraits.set(key, pending);
  }
  return pending;
};

/**
 * One output image at exactly width × height: a seeded scene, and one face per person of the inputs (see
 * the file comment), or a stranger (drift), or none.
 */
export const renderOutput = async (request: RenderRequest): Promise<RenderedOutput> => {
  const random = seededRandom(request.seed, 'render');
  const background = await scene(request.width, request.height, random);
  const noFace = request.prompt.includes(DOUBLE_TRIGGERS.noFace);
  const drift =
    request.prompt.includes(DOUBLE_TRIGGERS.drift) || random.chance(Math.max(0, Math.min(1, request.driftRate ?? 0)));
  const subjects = noFace ? [] : await subjectsOf(request.inputs);
  const drawList: { subject: IdentifiedFace | { person: string }; drift: boolean }[] = [];
  if (drift && !noFace) {
    const taken = new Set(subjects.map((subject) => subject.person));
    const strangers = [...new Set((await fixtureFaces()).map((face) => face.person))].filter(
      (person) => !taken.has(person),
    );
    for (let index = 0; index < Math.max(1, subjects.length); index += 1) {
      drawList.push({ subject: { person: random.pick(strangers) }, drift: true });
    }
  } else {
    for (const subject of subjects) drawList.push({ subject, drift: false });
  }
  const placements: Placement[] = [];
  const slotWidth = request.width / Math.max(1, drawList.length);
  for (const [index, { subject, drift: drifted }] of drawList.entries()) {
    const transform = request.transform;
    const { source, other } = await sourceFor(
      subject,
      random,
      transform === undefined || transform === 'other_photo' || transform === 'combined',
    );
    const plan = transform ? planOf(transform, !other) : usualPlan(random, !other);
    const raw = await applySteps(source, plan, random);
    placements.push(
      await place(raw, source, plan, { x: index * slotWidth, width: slotWidth }, request.height, random, {
        person: subject.person,
        drift: drifted,
        transforms: [
          ...(other ? (['other_photo'] as const) : []),
          ...plan.steps,
          ...(plan.small ? (['small_64'] as const) : []),
        ],
      }),
    );
  }
  const image = sharp(background, { raw: { width: request.width, height: request.height, channels: 3 } }).composite(
    placements.map(({ input, left, top, drawn }) => ({
      input,
      raw: { width: drawn.box.width, height: drawn.box.height, channels: 4 as const },
      left,
      top,
    })),
  );
  const data =
    request.format === 'jpeg'
      ? await image.jpeg({ quality: 90 }).toBuffer()
      : request.format === 'webp'
        ? await image.webp({ quality: 90 }).toBuffer()
        : await image.png({ compressionLevel: 3 }).toBuffer();
  return { data, faces: placements.map(({ drawn }) => drawn) };
};

/**
 * Checks what a provider was sent for internal ids: every string (image data: URIs and base64 payloads
 * aside) with `[[` or `prf_` is one. Returns the JSON paths of the offenders.
 */
export const internalIdsIn = (value: unknown, at = ''): string[] => {
  if (typeof value === 'string') {
    if (value.startsWith('data:')) return [];
    return value.includes('[[') || value.includes('prf_')
      ? [`${at || '/'}: ${JSON.stringify(value.slice(0, 200))}`]
      : [];
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => internalIdsIn(item, `${at}/${index}`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => (key === 'data' ? [] : internalIdsIn(item, `${at}/${key}`)));
  }
  return [];
};
