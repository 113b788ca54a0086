/**
 * @jest-environment ./test/faces/onnx-environment.js
 *
 * Inputs are labelled as what their bytes are (issue 31, item 5): the input guard re-encodes a HEIC, a
 * rotated photo and a PNG or WebP larger than 4096 px to JPEG, and the format that travels with the bytes
 * is the encoder's, so every provider is told JPEG. Each double refuses (or records as a violation) a label
 * that disagrees with the bytes: Gemini's inlineData.mimeType, OpenAI's part type and file name, the
 * Content-Type fal reads an image_urls entry with.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { FalEngine } from '../../../../../functions/adapters/engine/providers/fal/fal';
import { GeminiEngine } from '../../../../../functions/adapters/engine/providers/gemini/gemini';
import { OpenAiEngine } from '../../../../../functions/adapters/engine/providers/openai/openai';
import type { ProviderEngineOptions } from '../../../../../functions/adapters/engine/providers/provider';
import { decodeImageInput } from '../../../../../functions/adapters/images/image-input';
import type { DecodedImage, EngineRequest, ImageEngine } from '../../../../../functions/domain/engine/engine';
import { anEngineRequest } from '../../../../support/builders/engine';
import { startFalDouble } from '../../../../support/providers/fal-double';
import { startGeminiDouble } from '../../../../support/providers/gemini-double';
import { startOpenAiDouble } from '../../../../support/providers/openai-double';

const HEIC = readFileSync(join(__dirname, '../../../../fixtures/images/small-64x48.heic'));

/** The inputs whose bytes the guard rebuilds, as a caller sends them. */
const callerInputs = async (): Promise<Record<string, Buffer>> => {
  const wide = (width: number) => sharp({ create: { width, height: 120, channels: 3, background: '#4477aa' } });
  return {
    heic: HEIC,
    'large png': await wide(4400).png().toBuffer(),
    'large webp': await wide(4400).webp().toBuffer(),
    // EXIF orientation 6: the stored pixels are landscape, the photo is portrait.
    'exif-rotated jpeg': await sharp({ create: { width: 80, height: 60, channels: 3, background: '#aa7744' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer(),
  };
};

let inputs: Record<string, DecodedImage>;

beforeAll(async () => {
  const decoded = await Promise.all(
    Object.entries(await callerInputs()).map(
      async ([name, bytes]) =>
        [name, await decodeImageInput(bytes.toString('base64'), name, { fetchBytes: async () => bytes })] as const,
    ),
  );
  inputs = Object.fromEntries(decoded);
});

const request = (image: DecodedImage): EngineRequest =>
  anEngineRequest({
    workKey: 'job_labels',
    accountId: 'acc_labels',
    operation: 'edit',
    prompt: 'a warmer light',
    images: [image],
    height: 1024,
    baseModel: 'base-b-2',
  });

const references = (share: ProviderEngineOptions['references']['share'] = async () => 'unused') => ({
  load: async () => {
    throw new Error('no references in these requests');
  },
  url: async () => 'unused',
  share,
});

const transport = { wait: async () => undefined, random: () => 0.5 };

const CASES = ['heic', 'large png', 'large webp', 'exif-rotated jpeg'] as const;

describe('the input guard', () => {
  it.each(CASES)('labels a rebuilt %s as the JPEG it now is, and keeps what the caller sent apart', async (name) => {
    const image = inputs[name] as DecodedImage;
    expect(image.format).toBe('jpeg');
    expect((await sharp(image.data).metadata()).format).toBe('jpeg');
    expect(image.sourceFormat).toBe({ heic: 'heif', 'large png': 'png', 'large webp': 'webp' }[name as string]);
  });

  it('turns an EXIF-rotated photo upright', () => {
    expect(inputs['exif-rotated jpeg']).toMatchObject({ width: 60, height: 80 });
  });
});

describe.each(CASES)('a %s input reaches each provider labelled as its bytes', (name) => {
  const run = async (engine: ImageEngine) => {
    const outcome = await engine.run(request(inputs[name] as DecodedImage), new AbortController().signal);
    expect(outcome.kind).toBe('images');
  };

  it('Gemini: inlineData.mimeType image/jpeg', async () => {
    const double = await startGeminiDouble({ apiKey: 'k' });
    try {
      await run(
        new GeminiEngine({
          model: 'gemini-3.1-flash-image',
          baseUrl: double.baseUrl,
          apiKey: async () => 'k',
          references: references(),
          transport,
        }),
      );
      expect(double.violations).toEqual([]);
      const body = double.received[0]?.body as { contents: { parts: Record<string, unknown>[] }[] } | undefined;
      const parts = body?.contents[0]?.parts;
      expect(parts?.flatMap((part) => ('inlineData' in part ? [part.inlineData] : []))).toEqual([
        expect.objectContaining({ mimeType: 'image/jpeg' }),
      ]);
    } finally {
      await double.close();
    }
  });

  it('OpenAI: an image/jpeg part named input-1.jpg', async () => {
    const double = await startOpenAiDouble();
    try {
      await run(
        new OpenAiEngine({
          model: 'gpt-image-2',
          baseUrl: double.baseUrl,
          apiKey: async () => double.apiKey,
          references: references(),
          transport,
        }),
      );
      expect(double.violations).toEqual([]);
      expect(double.received[0]?.files[0]).toMatchObject({ filename: 'input-1.jpg', contentType: 'image/jpeg' });
    } finally {
      await double.close();
    }
  });

  it('fal: an image_urls entry served as image/jpeg', async () => {
    const double = await startFalDouble();
    const shared: string[] = [];
    try {
      await run(
        new FalEngine({
          model: 'fal-ai/flux-2',
          baseUrl: double.baseUrl,
          apiKey: async () => 'fal-key',
          media: { hosts: ['fal.media'], allowLoopback: true },
          references: references(async (data, contentType) => {
            shared.push(contentType);
            return double.share(data, contentType);
          }),
          transport,
        }),
      );
      expect(double.violations).toEqual([]);
      expect(shared).toEqual(['image/jpeg']);
    } finally {
      await double.close();
    }
  });
});
