import {
  decodeShrinkFor,
  detectorInput,
  luminanceOf,
  MIN_REGION_PX,
  pitchDegreesOf,
  sampleRegion,
  toLuma,
  yawDegreesOf,
} from '../../../../functions/adapters/faces/face-geometry';
import type { Point } from '../../../../functions/domain/faces';

describe('decodeShrinkFor: how much smaller an image may be decoded for its faces', () => {
  it('keeps full resolution while quartering would leave the smallest face under the minimum', () => {
    expect(decodeShrinkFor(4 * MIN_REGION_PX - 1)).toBe(1);
    expect(decodeShrinkFor(100)).toBe(1);
  });

  it('never halves: sharp would decode the whole image and then resample it, slower than the whole decode', () => {
    expect(decodeShrinkFor(2 * MIN_REGION_PX)).toBe(1);
    expect(decodeShrinkFor(3 * MIN_REGION_PX)).toBe(1);
  });

  it('quarters or divides by 8 while the smallest face keeps the minimum', () => {
    expect(decodeShrinkFor(4 * MIN_REGION_PX)).toBe(4);
    expect(decodeShrinkFor(8 * MIN_REGION_PX)).toBe(8);
  });

  it('never divides by more than 8 (what a JPEG can be decoded at)', () => {
    expect(decodeShrinkFor(100 * MIN_REGION_PX)).toBe(8);
  });
});

describe('sampleRegion: a rotated square of the image, bilinear', () => {
  const width = 40;
  const height = 30;
  const data = Uint8Array.from({ length: width * height * 3 }, (_, index) => (index * 37) % 256);
  const image = { data, width, height };
  /** The definition, one tap at a time, black outside the image. */
  const reference = (
    region: { centreX: number; centreY: number; side: number; angleRadians: number },
    size: number,
  ) => {
    const at = (x: number, y: number, c: number) =>
      x < 0 || y < 0 || x >= width || y >= height ? 0 : data[(y * width + x) * 3 + c];
    const supersample = Math.max(1, Math.min(2, Math.round(region.side / size)));
    const step = region.side / size;
    const out: number[] = [];
    for (let v = 0; v < size; v += 1)
      for (let u = 0; u < size; u += 1)
        for (let c = 0; c < 3; c += 1) {
          let sum = 0;
          for (let sy = 0; sy < supersample; sy += 1)
            for (let sx = 0; sx < supersample; sx += 1) {
              const dx = u * step + ((sx + 0.5) * step) / supersample - region.side / 2;
              const dy = v * step + ((sy + 0.5) * step) / supersample - region.side / 2;
              const x = region.centreX + dx * Math.cos(region.angleRadians) - dy * Math.sin(region.angleRadians) - 0.5;
              const y = region.centreY + dx * Math.sin(region.angleRadians) + dy * Math.cos(region.angleRadians) - 0.5;
              const x0 = Math.floor(x);
              const y0 = Math.floor(y);
              const fx = x - x0;
              const fy = y - y0;
              sum +=
                (1 - fx) * (1 - fy) * at(x0, y0, c) +
                fx * (1 - fy) * at(x0 + 1, y0, c) +
                (1 - fx) * fy * at(x0, y0 + 1, c) +
                fx * fy * at(x0 + 1, y0 + 1, c);
            }
          out.push(sum / (supersample * supersample));
        }
    return out;
  };

  it.each([
    ['inside, level', { centreX: 20, centreY: 15, side: 16, angleRadians: 0 }, 8],
    ['inside, turned and supersampled', { centreX: 20, centreY: 15, side: 20, angleRadians: 0.3 }, 10],
    ['over the edge (black outside)', { centreX: 3, centreY: 28, side: 14, angleRadians: -0.5 }, 7],
  ])('%s: equals the tap-by-tap definition', (_, region, size) => {
    const sampled = Array.from(sampleRegion(image, region, size));
    const expected = reference(region, size);
    expect(sampled).toHaveLength(expected.length);
    for (const [index, value] of sampled.entries()) expect(value).toBeCloseTo(expected[index] ?? Number.NaN, 3);
  });
});

describe('detectorInput: the detector’s bytes as floats in [-1, 1]', () => {
  it('maps 0 to -1, 255 to 1 and every value in between linearly, in order', () => {
    const pixels = Uint8Array.from([0, 255, 51, 204, 1]);
    const input = detectorInput(pixels);
    expect(input).toBeInstanceOf(Float32Array);
    expect(Array.from(input)).toEqual([-1, 1, -0.6, 0.6, 1 / 127.5 - 1].map(Math.fround));
  });

  it('is as long as its input (256 × 256 × 3 for the detector)', () => {
    expect(detectorInput(new Uint8Array(256 * 256 * 3))).toHaveLength(196_608);
  });
});

describe('toLuma: the embedding crop made grey', () => {
  it('puts each pixel’s BT.601 luma in all three channels, in place', () => {
    const crop = Float32Array.from([255, 0, 0, 0, 255, 0, 0, 0, 255, 10, 20, 30]);
    const grey = toLuma(crop);
    expect(grey).toBe(crop);
    const expected = [0.299 * 255, 0.587 * 255, 0.114 * 255, 0.299 * 10 + 0.587 * 20 + 0.114 * 30];
    expected.forEach((luma, pixel) => {
      for (let channel = 0; channel < 3; channel += 1) expect(grey[3 * pixel + channel]).toBeCloseTo(luma, 3);
    });
  });

  it('leaves a grey pixel as it was', () => {
    expect(Array.from(toLuma(Float32Array.from([77, 77, 77])))).toEqual([77, 77, 77]);
  });
});

/**
 * Synthetic landmarks: a rigid head (units of half the eye distance, y down, z towards the camera; an
 * adult's proportions, as the estimate assumes) tilted by `pitch` (chin up positive), turned by `yaw`,
 * projected orthographically, then rolled, scaled and moved as a photo would place it.
 */
const HEAD: Record<'rightEye' | 'leftEye' | 'nose' | 'mouth' | 'rightEar' | 'leftEar', [number, number, number]> = {
  rightEye: [-1, 0, 0],
  leftEye: [1, 0, 0],
  nose: [0, 0.56 * 2.2, 0.7],
  mouth: [0, 2.2, 0.35],
  rightEar: [-2.4, 0.6, -2.5],
  leftEar: [2.4, 0.6, -2.5],
};
const radians = (degrees: number) => (degrees * Math.PI) / 180;
const landmarksOf = (pose: { yaw: number; pitch: number; roll?: number; scale?: number; at?: Point }): Point[] => {
  const [phi, theta, rho] = [radians(pose.pitch), radians(pose.yaw), radians(pose.roll ?? 0)];
  const scale = pose.scale ?? 40;
  const [atX, atY] = pose.at ?? [300, 200];
  return Object.values(HEAD).map(([x, y, z]) => {
    const tiltedY = y * Math.cos(phi) - z * Math.sin(phi);
    const tiltedZ = y * Math.sin(phi) + z * Math.cos(phi);
    const turnedX = x * Math.cos(theta) + tiltedZ * Math.sin(theta);
    return [
      atX + scale * (turnedX * Math.cos(rho) - tiltedY * Math.sin(rho)),
      atY + scale * (turnedX * Math.sin(rho) + tiltedY * Math.cos(rho)),
    ];
  });
};

describe('pitchDegreesOf: the head tilt from the keypoints', () => {
  it('reads 0 for a level face, whatever its size, place and roll', () => {
    for (const roll of [-25, 0, 25])
      for (const scale of [15, 80])
        expect(pitchDegreesOf(landmarksOf({ yaw: 0, pitch: 0, roll, scale, at: [50, 900] }))).toBeCloseTo(0, 6);
  });

  it.each([-30, -15, -5, 5, 15, 30])('recovers a tilt of %i° (chin up positive) at any turn and roll', (pitch) => {
    for (const yaw of [-35, 0, 20])
      for (const roll of [-15, 0, 10]) expect(pitchDegreesOf(landmarksOf({ yaw, pitch, roll }))).toBeCloseTo(pitch, 6);
  });

  it('orders faces by tilt: a face looking down reads below a level one, which reads below one looking up', () => {
    const [down, level, up] = [-20, 0, 20].map((pitch) => pitchDegreesOf(landmarksOf({ yaw: 10, pitch })));
    expect(down).toBeLessThan(level);
    expect(level).toBeLessThan(up);
  });

  it('reads 0 when no mouth is found below the eyes (nothing to read a tilt from)', () => {
    const [eyeA, eyeB, nose] = landmarksOf({ yaw: 0, pitch: 0 });
    expect(pitchDegreesOf([eyeA, eyeB, nose])).toBe(0);
    expect(pitchDegreesOf([eyeA, eyeB, nose, [eyeA[0], eyeA[1] - 10]])).toBe(0);
  });
});

describe('yawDegreesOf: the head turn from the keypoints', () => {
  it.each([-40, -20, 0, 20, 40])('recovers a turn of %i° of a level face, at any roll', (yaw) => {
    for (const roll of [-20, 0, 20]) expect(yawDegreesOf(landmarksOf({ yaw, pitch: 0, roll }))).toBeCloseTo(yaw, 6);
  });
});

describe('luminanceOf: how the face is lit', () => {
  const crop = (inner: number, outer: number, sizePx = 8) => {
    const pixels = new Float32Array(sizePx * sizePx * 3);
    for (let y = 0; y < sizePx; y += 1)
      for (let x = 0; x < sizePx; x += 1) {
        const inside = x >= sizePx / 4 && x < sizePx - sizePx / 4 && y >= sizePx / 4 && y < sizePx - sizePx / 4;
        pixels.fill(inside ? inner : outer, 3 * (y * sizePx + x), 3 * (y * sizePx + x) + 3);
      }
    return pixels;
  };

  it('is the mean grey of the inner half (the face), 0 to 1, whatever the margin around it', () => {
    expect(luminanceOf(crop(255, 0), 8)).toBeCloseTo(1, 6);
    expect(luminanceOf(crop(0, 255), 8)).toBeCloseTo(0, 6);
    expect(luminanceOf(crop(102, 0), 8)).toBeCloseTo(0.4, 6);
  });
});
