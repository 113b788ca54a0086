import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { decodeImageInput, type FetchBytes, previewOf } from '../../../../functions/adapters/images/image-input';
import { DomainError, InvalidRequestError, NotFoundError } from '../../../../functions/domain/errors';

afterEach(() => jest.restoreAllMocks());

const LABEL = 'images[3]';
const UNSUPPORTED = 'images[3] is not a supported image (JPEG, PNG, WebP, HEIC/HEIF).';
const SMALL_HEIC = readFileSync(join(__dirname, '../../../fixtures/images/small-64x48.heic'));

const noFetch: FetchBytes = async (url) => {
  throw new Error(`unexpected fetch of ${url}`);
};
const decode = (value: string, fetchBytes: FetchBytes = noFetch, maxInputBytes?: number) =>
  decodeImageInput(value, LABEL, { fetchBytes, maxInputBytes });

const refusal = (message: string | RegExp) =>
  expect.objectContaining({
    code: 'INVALID_REQUEST',
    message: typeof message === 'string' ? message : expect.stringMatching(message),
  });

/** A 40x30 photo-like image (noise), so its base64 holds every character of the alphabet. */
const picture = (width = 40, height = 30) =>
  sharp({
    create: { width, height, channels: 3, background: 'black', noise: { type: 'gaussian', mean: 128, sigma: 60 } },
  });

/** A PNG whose IHDR claims the given size, with one tiny IDAT: a few dozen bytes, like a real bomb. */
const pngClaiming = (width: number, height: number): Buffer => {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const frame = Buffer.alloc(8 + body.length);
    frame.writeUInt32BE(data.length, 0);
    body.copy(frame, 4);
    frame.writeUInt32BE(crc32(body), 4 + body.length);
    return frame;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(64))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
};

let png: Buffer;
let jpeg: Buffer;
let webp: Buffer;
let avif: Buffer;

beforeAll(async () => {
  [png, jpeg, webp, avif] = await Promise.all([
    picture().png().toBuffer(),
    picture().jpeg().toBuffer(),
    picture().webp().toBuffer(),
    picture(16, 16).avif({ effort: 0 }).toBuffer(),
  ]);
});

describe('decodeImageInput: forms', () => {
  it('reads bare base64 and returns the original bytes untouched', async () => {
    const decoded = await decode(png.toString('base64'));
    expect(decoded).toMatchObject({ format: 'png', width: 40, height: 30 });
    expect(decoded.data).toEqual(png);
  });

  it('accepts standard base64 with complete padding, URL-safe with or without it, refuses incomplete padding', async () => {
    // Bytes after a JPEG's end are ignored; these make the length 3k + 1 (padding "==") and encode to "/" or "_".
    const bytes = Buffer.concat([jpeg, Buffer.alloc(((((1 - jpeg.length) % 3) + 3) % 3) + 3, 0xff)]);
    const urlSafe = bytes.toString('base64url');
    expect(bytes.toString('base64')).toMatch(/\/.*==$/);
    for (const encoded of [bytes.toString('base64'), urlSafe, `${urlSafe}==`])
      expect((await decode(encoded)).data).toEqual(bytes);
    await expect(decode(`${urlSafe}=`)).rejects.toEqual(
      refusal('images[3] is neither an http(s) URL nor valid base64.'),
    );
  });

  it('reads URL-safe base64 without padding', async () => {
    const urlSafe = png.toString('base64url');
    expect(png.toString('base64')).toMatch(/[+/]/);
    expect((await decode(urlSafe)).data).toEqual(png);
  });

  it('tolerates base64 wrapped at 76 columns', async () => {
    const wrapped = png.toString('base64').replace(/.{76}/g, '$&\r\n');
    expect((await decode(wrapped)).data).toEqual(png);
  });

  it('judges base64 with spaces, tabs and line breaks as the same text without them', async () => {
    // Padded ("=="), so the whitespace also falls between the data and its padding, and after it.
    const bytes = Buffer.concat([jpeg, Buffer.alloc(((((1 - jpeg.length) % 3) + 3) % 3) + 3, 0xff)]);
    const text = bytes.toString('base64');
    expect(text).toMatch(/==$/);
    const spaced = `${text.slice(0, 5)} ${text.slice(5, 9)}\t${text.slice(9, -2)}\n==\r\n `;
    expect((await decode(spaced)).data).toEqual(bytes);
    // Within the cap once the whitespace is gone, though the text as sent would count as more bytes.
    const widelySpaced = text.replace(/.{8}/g, '$&    ');
    expect((await decode(widelySpaced, noFetch, bytes.length)).data).toEqual(bytes);
    await expect(decode(widelySpaced, noFetch, bytes.length - 1)).rejects.toEqual(
      refusal(`images[3] is larger than ${bytes.length - 1} bytes; send a smaller image.`),
    );
    await expect(decode(`${text.slice(0, 8)}\n${text.slice(8, -2)}=\n=`)).resolves.toMatchObject({ data: bytes });
    await expect(decode(`${text.slice(0, 8)}=\n${text.slice(8)}`)).rejects.toEqual(
      refusal('images[3] is neither an http(s) URL nor valid base64.'),
    );
  });

  it('reads a data URI and ignores its declared type', async () => {
    const decoded = await decode(`data:image/png;base64,${jpeg.toString('base64')}`);
    expect(decoded.format).toBe('jpeg');
    expect(decoded.data).toEqual(jpeg);
  });

  it('fetches http and https URLs through the injected fetcher', async () => {
    const fetched: string[] = [];
    const fetchBytes: FetchBytes = async (url) => {
      fetched.push(url);
      return webp;
    };
    await expect(decode('https://images.example/a.webp', fetchBytes)).resolves.toMatchObject({
      format: 'webp',
      width: 40,
      height: 30,
    });
    await decode('HTTP://images.example/b', fetchBytes);
    expect(fetched).toEqual(['https://images.example/a.webp', 'HTTP://images.example/b']);
  });

  it('names the input when the fetcher refuses, keeping the refusal code', async () => {
    const fetchBytes: FetchBytes = async () => {
      throw new NotFoundError('the URL answered 404');
    };
    const error = await decode('https://images.example/gone', fetchBytes).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'NOT_FOUND', message: 'images[3] could not be fetched: the URL answered 404' });
  });

  it('refuses an empty string', async () => {
    await expect(decode('')).rejects.toEqual(refusal('images[3] is empty.'));
  });

  it('refuses characters outside the base64 alphabets', async () => {
    const nonAscii = `${png.toString('base64').slice(0, 7)}\u0141`; // Node's decoder would read it as 'A'
    for (const bad of [
      'abc$defg',
      'ab+c-def',
      'abcde',
      'abc=defg',
      'ab=',
      'abc.',
      'ab.=',
      'a===',
      '====',
      'ab==cdef',
      'abc\u00e9',
      nonAscii,
    ]) {
      await expect(decode(bad)).rejects.toEqual(refusal('images[3] is neither an http(s) URL nor valid base64.'));
    }
  });

  it('refuses schemes other than http and https', async () => {
    await expect(decode('ftp://images.example/a.png')).rejects.toEqual(
      refusal(/^images\[3\] uses the unsupported scheme "ftp:"/),
    );
    await expect(decode('file:///etc/passwd')).rejects.toEqual(
      refusal(/^images\[3\] uses the unsupported scheme "file:"/),
    );
  });

  it('refuses a data URI that is not an image in base64', async () => {
    await expect(decode(`data:text/plain;base64,${png.toString('base64')}`)).rejects.toEqual(
      refusal(/^images\[3\] is a data URI but not/),
    );
  });

  it('refuses base64 that decodes to more than maxInputBytes', async () => {
    await expect(decode(png.toString('base64'), noFetch, png.length - 1)).rejects.toEqual(
      refusal(`images[3] is larger than ${png.length - 1} bytes; send a smaller image.`),
    );
  });

  it('refuses a fetched body of more than maxInputBytes', async () => {
    await expect(decode('https://images.example/a.png', async () => png, 100)).rejects.toEqual(
      refusal(/^images\[3\] is larger than 100 bytes/),
    );
  });
});

describe('decodeImageInput: formats', () => {
  it('detects JPEG, PNG and WebP from their magic bytes', async () => {
    expect((await decode(jpeg.toString('base64'))).format).toBe('jpeg');
    expect((await decode(png.toString('base64'))).format).toBe('png');
    expect((await decode(webp.toString('base64'))).format).toBe('webp');
  });

  it('decodes HEIC into a JPEG sharp can read, with its dimensions', async () => {
    const decoded = await decode(SMALL_HEIC.toString('base64'));
    expect(decoded).toMatchObject({ format: 'jpeg', sourceFormat: 'heif', width: 64, height: 48 });
    await expect(sharp(decoded.data).metadata()).resolves.toMatchObject({ format: 'jpeg', width: 64, height: 48 });
  });

  it('refuses a truncated HEIC with a 400', async () => {
    jest.spyOn(console, 'log').mockImplementation(() => undefined); // libheif-js logs its decoding failures
    const truncated = SMALL_HEIC.subarray(0, SMALL_HEIC.length - 100);
    await expect(decode(truncated.toString('base64'))).rejects.toEqual(refusal(/^images\[3\] could not be decoded/));
  });

  it('refuses GIF, PDF and AVIF bytes naming the input', async () => {
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: 'red' } })
      .gif()
      .toBuffer();
    const pdf = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n');
    for (const bytes of [gif, pdf, avif])
      await expect(decode(bytes.toString('base64'))).rejects.toEqual(refusal(UNSUPPORTED));
  });

  it('refuses AVIF even under the generic mif1 brand', async () => {
    const disguised = Buffer.from(avif);
    disguised.write('mif1', 8, 'latin1');
    await expect(decode(disguised.toString('base64'))).rejects.toEqual(refusal(UNSUPPORTED));
  });

  it('refuses a truncated JPEG with a 400, not a 500', async () => {
    const big = await picture(400, 300).jpeg().toBuffer();
    const truncated = big.subarray(0, big.length / 2);
    await expect(decode(truncated.toString('base64'))).rejects.toEqual(
      refusal('images[3] could not be decoded: the image is corrupt or truncated.'),
    );
  });

  it.each(['jpeg', 'png', 'webp'] as const)(
    'refuses a truncated or cut-short %s with a 400 naming the input',
    async (format) => {
      const whole = await picture(400, 300)[format]().toBuffer();
      // Cut inside the pixel data. (A file missing only its end marker, every pixel still there, may pass.)
      for (const kept of [0.5, 0.9]) {
        const truncated = whole.subarray(0, Math.floor(whole.length * kept));
        const message = /^images\[3\] could not be decoded: the image (header )?is corrupt or truncated\.$/;
        await expect(decode(truncated.toString('base64'))).rejects.toEqual(refusal(message));
      }
    },
  );

  it('refuses a PNG whose compressed pixels are corrupt', async () => {
    const corrupt = Buffer.from(await picture(400, 300).png().toBuffer());
    const middle = Math.floor(corrupt.length / 2);
    corrupt.fill(0x55, middle, middle + 64);
    await expect(decode(corrupt.toString('base64'))).rejects.toEqual(
      refusal('images[3] could not be decoded: the image is corrupt or truncated.'),
    );
  });

  it('refuses a file cut inside its header', async () => {
    await expect(decode(png.subarray(0, 20).toString('base64'))).rejects.toEqual(
      refusal(/^images\[3\] could not be decoded/),
    );
  });
});

describe('decodeImageInput: preview', () => {
  it.each(['jpeg', 'png', 'webp'] as const)(
    'leaves the preview of the untouched %s bytes, as a fresh decode makes it',
    async (format) => {
      const bytes = await picture(400, 300)[format]().toBuffer();
      const decoded = await decode(bytes.toString('base64'));
      const fresh = await previewOf(bytes);
      expect(decoded.data.equals(bytes)).toBe(true);
      expect(decoded.preview).toMatchObject({ width: 128, height: 96 });
      expect(fresh).toMatchObject({ width: 128, height: 96 });
      expect(decoded.preview?.data.length).toBe(128 * 96 * 3);
      expect(decoded.preview?.data.equals(fresh.data)).toBe(true);
    },
  );

  it('flattens transparency on white and keeps a small image at its size', async () => {
    const clear = await sharp({
      create: { width: 8, height: 6, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const { preview } = await decode(clear.toString('base64'));
    expect(preview).toMatchObject({ width: 8, height: 6 });
    expect([...new Set(preview?.data)]).toEqual([255]);
  });

  it('leaves no preview when the bytes were rebuilt, since it would not be that of the new bytes', async () => {
    const rotated = await picture(40, 30).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    expect((await decode(rotated.toString('base64'))).preview).toBeUndefined();
    expect((await decode(SMALL_HEIC.toString('base64'))).preview).toBeUndefined();
  });
});

describe('decodeImageInput: size', () => {
  it('resizes an input wider than 4096 px to 4096 wide, keeping its aspect', async () => {
    const wide = await picture(5000, 100).png().toBuffer();
    const decoded = await decode(wide.toString('base64'));
    // Rebuilt without alpha, so JPEG: the label is the bytes' format, the caller's kept apart.
    expect(decoded).toMatchObject({ format: 'jpeg', sourceFormat: 'png', width: 4096, height: 82 });
    await expect(sharp(decoded.data).metadata()).resolves.toMatchObject({ format: 'jpeg', width: 4096, height: 82 });
  });

  it('turns an EXIF-rotated JPEG upright and reports the upright size', async () => {
    const rotated = await picture(40, 30).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const decoded = await decode(rotated.toString('base64'));
    expect(decoded).toMatchObject({ format: 'jpeg', width: 30, height: 40 });
    const metadata = await sharp(decoded.data).metadata();
    expect(metadata).toMatchObject({ width: 30, height: 40 });
    expect(metadata.orientation ?? 1).toBe(1);
  });

  it('refuses a pixel bomb from its header, before decoding', async () => {
    const bomb = pngClaiming(50_000, 50_000);
    expect(bomb.length).toBeLessThan(200);
    await expect(decode(bomb.toString('base64'))).rejects.toEqual(
      refusal(/^images\[3\] is too large: 50000x50000 pixels/),
    );
  });

  it('refuses an edge longer than 30 000 px even under the pixel limit', async () => {
    await expect(decode(pngClaiming(40_000, 10).toString('base64'))).rejects.toEqual(
      refusal(/^images\[3\] is too large: 40000x10 pixels/),
    );
  });

  it('refuses with an InvalidRequestError', async () => {
    await expect(decode('')).rejects.toBeInstanceOf(InvalidRequestError);
  });
});

describe('a direct upload as an input', () => {
  const UPLOAD_ID = 'upl_01JD3Q8X2M9Z4Y6W5V7T8S9R0P';
  const fromUploads = (uploads: Record<string, Buffer>) => (value: string) =>
    decodeImageInput(value, LABEL, { fetchBytes: noFetch, readUpload: async (id) => uploads[id] });

  it('reads the bytes of the caller’s upload and checks them like any input', async () => {
    const jpeg = await picture().jpeg().toBuffer();
    await expect(fromUploads({ [UPLOAD_ID]: jpeg })(`upload:${UPLOAD_ID}`)).resolves.toMatchObject({
      format: 'jpeg',
      width: 40,
      height: 30,
    });
  });

  it('is not found when the upload is not the caller’s, never existed or has expired', async () => {
    await expect(fromUploads({})(`upload:${UPLOAD_ID}`)).rejects.toEqual(
      new NotFoundError(
        `images[3]: upload ${UPLOAD_ID} not found (uploads belong to the account that made them and expire 24 h after they arrive).`,
      ),
    );
  });

  it('refuses an upload that is not an image', async () => {
    await expect(
      fromUploads({ [UPLOAD_ID]: Buffer.from('%PDF-1.7 not an image') })(`upload:${UPLOAD_ID}`),
    ).rejects.toEqual(refusal(UNSUPPORTED));
  });

  it('refuses a malformed reference', async () => {
    await expect(fromUploads({})('upload:../other-account/upl_1')).rejects.toEqual(
      refusal(/^images\[3\] is not a valid upload reference/),
    );
  });

  it('refuses a reference where uploads are not accepted', async () => {
    await expect(decode(`upload:${UPLOAD_ID}`)).rejects.toEqual(
      refusal('images[3] cannot be a direct upload here; send an http(s) URL.'),
    );
  });
});
