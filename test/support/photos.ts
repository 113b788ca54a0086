/** A photo server on loopback for profile training (photos of one real person), with some broken URLs. */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';

const FACES_DIR = path.join(__dirname, '..', 'fixtures', 'faces');

/** A face fixture's bytes (test/fixtures/faces/, see its SOURCES.md). */
export const faceFixture = (name: string): Buffer => fs.readFileSync(path.join(FACES_DIR, name));

/**
 * A photo of one real person (the NASA astronaut portrait, public domain), varied per index as a
 * training set's photos vary: scaled, mirrored, cropped, brighter or darker, turned a few degrees.
 * Every variant shows her one face, large, sharp and frontal enough to train on.
 */
export const subjectPhoto = async (
  index: number,
  format: 'png' | 'jpeg' = 'png',
  source = 'astronaut.jpg',
): Promise<Buffer> => {
  const side = 576 + (index % 8) * 16;
  const margin = (index % 4) * 12;
  let image = sharp(faceFixture(source)).resize(side, side);
  if (index % 2 === 1) image = image.flop();
  const varied = await image
    .modulate({ brightness: 0.85 + (index % 5) * 0.075 })
    .rotate(((index % 5) - 2) * 3, { background: '#777' })
    .toBuffer();
  const cropped = sharp(varied).extract({ left: margin, top: margin, width: side - margin, height: side - margin });
  return format === 'png' ? cropped.png().toBuffer() : cropped.jpeg({ quality: 92 }).toBuffer();
};

/** How many photos of one man `facematch-man.jpg` holds (a 3 × 3 sheet: SOURCES.md). */
export const FACEMATCH_TILES = 9;

/**
 * One of the nine photos of the facematch man (tile 0-8, row by row), 600 px square with his face about
 * 200 px wide, mirrored when asked: his head turned and tilted differently in each (the analyser reads
 * yaw from −34° to 44° over the nine and their mirrors), the set a reference bank can cover.
 */
export const facematchPhoto = async (tile: number, mirrored = false): Promise<Buffer> => {
  if (!Number.isInteger(tile) || tile < 0 || tile >= FACEMATCH_TILES) throw new Error(`no tile ${tile}`);
  const cell = await sharp(faceFixture('facematch-man.jpg'))
    .extract({ left: 200 * (tile % 3), top: 200 * Math.floor(tile / 3), width: 200, height: 200 })
    .toBuffer();
  const photo = sharp(cell).resize(600, 600, { kernel: 'lanczos3' });
  return (mirrored ? photo.flop() : photo).jpeg({ quality: 92 }).toBuffer();
};

/**
 * A photo unlike any other seed's: a background and a dozen shapes of colours, sizes and places drawn
 * from `seed` (a fixed sequence, so a seed always makes the same photo), as a varied training set has.
 */
export const variedPhoto = async (seed: number, size = { width: 480, height: 600 }): Promise<Buffer> => {
  let state = seed * 7919 + 17;
  const next = () => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
  const colour = () => `rgb(${Math.floor(next() * 256)},${Math.floor(next() * 256)},${Math.floor(next() * 256)})`;
  const shapes = Array.from({ length: 12 }, () =>
    next() < 0.5
      ? `<rect x="${next() * size.width}" y="${next() * size.height}" width="${40 + next() * 200}" height="${40 + next() * 200}" fill="${colour()}"/>`
      : `<circle cx="${next() * size.width}" cy="${next() * size.height}" r="${20 + next() * 120}" fill="${colour()}"/>`,
  ).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size.width}" height="${size.height}"><rect width="100%" height="100%" fill="${colour()}"/>${shapes}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 92 }).toBuffer();
};

export const startPhotoServer = async (options: { delayMs?: number } = {}) => {
  const files = new Map<string, { body: Buffer; type: string }>();
  // Answers still delayed when the server closes are dropped, so that nothing outlives the test.
  const delayed = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const file = files.get(req.url ?? '');
    const timer = setTimeout(() => {
      delayed.delete(timer);
      if (!file) return res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': file.type }).end(file.body);
    }, options.delayMs ?? 0);
    delayed.add(timer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    /** Serves `body` and returns its URL. */
    add: (name: string, body: Buffer, type = 'image/png') => {
      files.set(`/${name}`, { body, type });
      return `${base}/${name}`;
    },
    missing: (name: string) => `${base}/missing/${name}`,
    close: () => {
      for (const timer of delayed) clearTimeout(timer);
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

export type PhotoServer = Awaited<ReturnType<typeof startPhotoServer>>;

/** Serves a training set of `count` photos of the subject (`subjectPhoto` 0 to count-1) as p<i>.png or .jpg; answers their URLs. */
export const serveSubjectPhotos = async (
  photos: PhotoServer,
  count: number,
  format: 'png' | 'jpeg' = 'png',
): Promise<string[]> => {
  const urls: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const photo = await subjectPhoto(index, format);
    urls.push(format === 'png' ? photos.add(`p${index}.png`, photo) : photos.add(`p${index}.jpg`, photo, 'image/jpeg'));
  }
  return urls;
};
