/** A photo server on loopback for profile training (photos of one "subject"), with some broken URLs. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/** A photo-like image: a face-ish blob on a background, varied a little per index. */
export const subjectPhoto = async (index: number, format: 'png' | 'jpeg' = 'png'): Promise<Buffer> => {
  const width = 320 + index * 8;
  const height = 400;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="rgb(${40 + index},${90},${140})"/>
    <ellipse cx="${width / 2}" cy="180" rx="90" ry="120" fill="rgb(230,190,160)"/>
    <circle cx="${width / 2 - 35}" cy="150" r="12" fill="#222"/><circle cx="${width / 2 + 35}" cy="150" r="12" fill="#222"/>
    <rect x="${width / 2 - 40}" y="240" width="80" height="14" fill="#a33"/></svg>`;
  const image = sharp(Buffer.from(svg));
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 92 }).toBuffer();
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
  const server = http.createServer((req, res) => {
    const file = files.get(req.url ?? '');
    setTimeout(() => {
      if (!file) return res.writeHead(404).end();
      res.writeHead(200, { 'Content-Type': file.type }).end(file.body);
    }, options.delayMs ?? 0);
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
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
