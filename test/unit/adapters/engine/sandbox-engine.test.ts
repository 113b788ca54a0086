import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { SandboxEngine, SandboxEngineFailure, type Wait } from '../../../../functions/adapters/engine/sandbox-engine';
import {
  parseSandboxPrompt,
  SANDBOX_PROMPT_TOKENS,
  sandboxPromptTableMarkdown,
} from '../../../../functions/adapters/engine/sandbox-prompts';
import { decodeImageInput, previewOf } from '../../../../functions/adapters/images/image-input';
import type {
  CandidateProfile,
  DecodedImage,
  EngineOutcome,
  EngineRequest,
} from '../../../../functions/domain/engine/engine';

/** A photo stand-in: a seeded 8×6 grid of colours (each channel within `range`), upscaled smoothly. */
const photo = async (seed: number, range: [number, number] = [0, 255]): Promise<DecodedImage> => {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state >>> 24;
  };
  const grid = Buffer.from(
    Array.from({ length: 8 * 6 * 3 }, () => range[0] + Math.floor((next() / 256) * (range[1] - range[0]))),
  );
  const data = await sharp(grid, { raw: { width: 8, height: 6, channels: 3 } })
    .resize(64, 48, { fit: 'fill' })
    .jpeg({ quality: 92 })
    .toBuffer();
  return { data, format: 'jpeg', width: 64, height: 48 };
};

/** A photo whose channels are each drawn from their own range (for colour statistics). */
const tinted = async (seed: number, ranges: [number, number][]): Promise<DecodedImage> => {
  let state = seed;
  const next = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 24) / 256;
  };
  const grid = Buffer.from(
    Array.from({ length: 8 * 6 * 3 }, (_, index) => {
      const [low, high] = ranges[index % 3];
      return low + Math.floor(next() * (high - low));
    }),
  );
  const data = await sharp(grid, { raw: { width: 8, height: 6, channels: 3 } })
    .resize(64, 48, { fit: 'fill' })
    .png()
    .toBuffer();
  return { data, format: 'png', width: 64, height: 48 };
};

let portrait: DecodedImage;
let stranger: DecodedImage;
beforeAll(async () => {
  [portrait, stranger] = await Promise.all([photo(1), photo(2)]);
});

const request = (overrides: Partial<EngineRequest> = {}): EngineRequest => ({
  workKey: 'job_test',
  accountId: 'acc_1',
  operation: 'edit',
  prompt: 'a portrait in warm light',
  images: [portrait],
  width: 96,
  height: 64,
  outputFormat: 'png',
  numOutputImages: 1,
  baseModel: 'base-c-2',
  candidates: [],
  namedInPrompt: [],
  ...overrides,
});

const live = () => new AbortController().signal;
const engine = new SandboxEngine();

const imagesOf = (outcome: EngineOutcome) => {
  if (outcome.kind !== 'images') throw new Error(`expected images, got ${outcome.kind}`);
  return outcome;
};

const channelMeans = async (image: Buffer) =>
  (await sharp(image).stats()).channels.slice(0, 3).map((channel) => channel.mean);

describe('sandbox engine outputs', () => {
  const cases = [
    { operation: 'edit', images: () => [portrait, stranger] },
    { operation: 'generate', images: () => [] },
    { operation: 'enhance', images: () => [portrait] },
    { operation: 'remix', images: () => [portrait, stranger] },
  ] as const;

  for (const { operation, images } of cases) {
    for (const outputFormat of ['png', 'jpg'] as const) {
      it(`${operation} renders ${outputFormat} at exactly the size asked`, async () => {
        const outcome = imagesOf(
          await engine.run(request({ operation, images: [...images()], outputFormat, width: 80, height: 112 }), live()),
        );
        expect(outcome.images).toHaveLength(1);
        const metadata = await sharp(outcome.images[0]).metadata();
        expect(metadata).toMatchObject({ format: outputFormat === 'png' ? 'png' : 'jpeg', width: 80, height: 112 });
      });
    }
  }

  it('renders num_output_images distinct images', async () => {
    for (const operation of ['edit', 'generate', 'enhance', 'remix'] as const) {
      const images = operation === 'generate' ? [] : operation === 'remix' ? [portrait, stranger] : [portrait];
      const outcome = imagesOf(await engine.run(request({ operation, images, numOutputImages: 3 }), live()));
      expect(outcome.images).toHaveLength(3);
      const pixels = await Promise.all(outcome.images.map((image) => sharp(image).raw().toBuffer()));
      expect(new Set(pixels.map((raw) => raw.toString('base64'))).size).toBe(3);
    }
  });

  it('gives the same bytes for the same request', async () => {
    const asked = request({ numOutputImages: 2, images: [portrait, stranger] });
    const [first, second] = await Promise.all([engine.run(asked, live()), engine.run(asked, live())]);
    expect(imagesOf(second).images).toEqual(imagesOf(first).images);
  });

  it('gives the same bytes whether the inputs carry the input guard’s preview or not', async () => {
    const dull = await photo(7, [100, 150]);
    const noFetch = async (): Promise<Buffer> => {
      throw new Error('no fetch');
    };
    const guard = (image: DecodedImage) =>
      decodeImageInput(image.data.toString('base64'), 'image', { fetchBytes: noFetch });
    const checked = await Promise.all([dull, stranger].map(guard));
    expect(checked.map((image) => image.preview?.width)).toEqual([64, 64]);
    for (const operation of ['enhance', 'remix'] as const) {
      const [plain, previewed] = await Promise.all(
        [[dull, stranger], checked].map((images) =>
          engine.run(request({ operation, images, outputFormat: 'jpg' }), live()),
        ),
      );
      expect(imagesOf(previewed).images[0].equals(imagesOf(plain).images[0])).toBe(true);
    }
  });

  it('reads the statistics from an input’s preview when it has one', async () => {
    const dull = await photo(7, [100, 150]);
    const flat = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#808080' } })
      .png()
      .toBuffer();
    const misleading = { ...dull, preview: await previewOf(flat) }; // a flat preview: nothing to stretch
    const [stretched, unstretched] = await Promise.all(
      [dull, misleading].map((image) =>
        engine.run(request({ operation: 'enhance', images: [image], outputFormat: 'jpg' }), live()),
      ),
    );
    const spread = async (image: Buffer) => (await sharp(image).greyscale().stats()).channels[0].stdev;
    expect(await spread(imagesOf(unstretched).images[0])).toBeLessThan(
      (await spread(imagesOf(stretched).images[0])) / 1.5,
    );
  });

  it('generates a different image for a different prompt', async () => {
    const [sunset, forest] = await Promise.all(
      ['a sunset', 'a forest'].map((prompt) =>
        engine.run(request({ operation: 'generate', images: [], prompt }), live()),
      ),
    );
    expect(imagesOf(sunset).images[0].equals(imagesOf(forest).images[0])).toBe(false);
  });

  it('edit keeps the first input recognisable in the output', async () => {
    const outcome = imagesOf(await engine.run(request({ width: 64, height: 48, outputFormat: 'jpg' }), live()));
    const [input, output] = await Promise.all(
      [portrait.data, outcome.images[0]].map((image) => sharp(image).greyscale().raw().toBuffer()),
    );
    const correlation = pearson(input, output);
    expect(correlation).toBeGreaterThan(0.8);
  });

  it('enhance stretches a dull image’s contrast at 2K', async () => {
    const dull = await photo(7, [100, 150]);
    const outcome = imagesOf(
      await engine.run(
        request({ operation: 'enhance', images: [dull], width: 2048, height: 1536, outputFormat: 'jpg' }),
        live(),
      ),
    );
    const output = outcome.images[0];
    expect(await sharp(output).metadata()).toMatchObject({ format: 'jpeg', width: 2048, height: 1536 });
    const spread = async (image: Buffer) => (await sharp(image).greyscale().stats()).channels[0].stdev;
    expect(await spread(output)).toBeGreaterThan(1.5 * (await spread(dull.data)));
  });

  it('remix moves the input’s colours toward the reference’s', async () => {
    const reddish = await tinted(3, [
      [150, 250],
      [20, 90],
      [20, 90],
    ]);
    const bluish = await tinted(4, [
      [10, 60],
      [60, 120],
      [170, 250],
    ]);
    const outcome = imagesOf(await engine.run(request({ operation: 'remix', images: [reddish, bluish] }), live()));
    const [input, reference, output] = await Promise.all(
      [reddish.data, bluish.data, outcome.images[0]].map(channelMeans),
    );
    for (const channel of [0, 1, 2]) {
      expect(Math.abs(output[channel] - reference[channel])).toBeLessThan(
        Math.abs(input[channel] - reference[channel]) / 3,
      );
    }
  });
});

describe('sandbox engine identity', () => {
  /** A reference crop stand-in: one flat colour per profile, so its place in an output can be measured. */
  const REFERENCE_COLOURS: Record<string, [number, number, number]> = {
    'profiles/acc/prf_me/reference-0.jpg': [200, 30, 30],
    'profiles/acc/prf_other/reference-0.jpg': [30, 30, 200],
  };
  const read: string[] = [];
  const faceEngine = new SandboxEngine({
    referenceImage: async (key) => {
      read.push(key);
      const [r, g, b] = REFERENCE_COLOURS[key];
      return sharp({ create: { width: 64, height: 64, channels: 3, background: { r, g, b } } })
        .png()
        .toBuffer();
    },
  });
  beforeEach(() => {
    read.length = 0;
  });

  const candidate = (profileId: string, withFace = true): CandidateProfile => ({
    profileId,
    face: withFace
      ? {
          modelId: 'faces/1',
          kind: 'person',
          mean: [1, 0],
          referenceKeys: [`profiles/acc/${profileId}/reference-0.jpg`, `profiles/acc/${profileId}/reference-1.jpg`],
        }
      : null,
  });
  const regionMean = async (image: Buffer, left: number, top: number, size: number) =>
    channelMeans(await sharp(image).extract({ left, top, width: size, height: size }).png().toBuffer());

  it('places the first reference crop of a profile named in a generate prompt in the middle of every output', async () => {
    const outcome = imagesOf(
      await faceEngine.run(
        request({
          operation: 'generate',
          images: [],
          prompt: 'a [[prf_me]] hiking',
          width: 500,
          height: 400,
          candidates: [candidate('prf_me')],
          namedInPrompt: ['prf_me'],
          numOutputImages: 2,
        }),
        live(),
      ),
    );
    expect(read).toEqual(['profiles/acc/prf_me/reference-0.jpg']);
    // 30% of the longer side: 150 px, centred at (250, 200).
    for (const image of outcome.images) {
      const [r, g, b] = await regionMean(image, 190, 140, 120);
      expect([r > 180, g < 60, b < 60]).toEqual([true, true, true]);
    }
  });

  it('places several named faces side by side, in the order the prompt names them', async () => {
    const outcome = imagesOf(
      await faceEngine.run(
        request({
          operation: 'edit',
          prompt: '[[prf_other]] and [[prf_me]] at the beach',
          width: 600,
          height: 400,
          candidates: [candidate('prf_me'), candidate('prf_other')],
          namedInPrompt: ['prf_other', 'prf_me'],
        }),
        live(),
      ),
    );
    const [image] = outcome.images;
    // Two 180 px faces with a 45 px gap, centred along the bottom: lefts 98 and 323, top 212.
    const [left, right] = await Promise.all([regionMean(image, 118, 232, 140), regionMean(image, 343, 232, 140)]);
    expect(left[2] > left[0]).toBe(true);
    expect(right[0] > right[2]).toBe(true);
  });

  it('places no face for a candidate only in profile_ids, one without a face template, or in enhance and remix', async () => {
    await faceEngine.run(request({ candidates: [candidate('prf_me')], namedInPrompt: [] }), live());
    await faceEngine.run(request({ candidates: [candidate('prf_me', false)], namedInPrompt: ['prf_me'] }), live());
    await faceEngine.run(
      request({ operation: 'enhance', candidates: [candidate('prf_me')], namedInPrompt: ['prf_me'] }),
      live(),
    );
    await faceEngine.run(
      request({ operation: 'remix', images: [portrait, stranger], candidates: [candidate('prf_me')] }),
      live(),
    );
    expect(read).toEqual([]);
  });

  it('reports who is in its outputs to no one: recognition decides', async () => {
    const outcome = imagesOf(
      await faceEngine.run(
        request({ prompt: '[[prf_me]]', candidates: [candidate('prf_me')], namedInPrompt: ['prf_me'] }),
        live(),
      ),
    );
    expect(Object.keys(outcome)).toEqual(['kind', 'images', 'usage']);
  });
});

describe('sandbox engine usage', () => {
  it('reports megapixels summed over outputs', async () => {
    const outcome = imagesOf(
      await engine.run(
        request({ operation: 'generate', images: [], width: 160, height: 100, numOutputImages: 3 }),
        live(),
      ),
    );
    expect(outcome.usage.megapixels).toBeCloseTo(0.048, 10);
  });

  it('reports output tokens that grow with size and quality', async () => {
    const tokens = async (quality: string | undefined) =>
      imagesOf(
        await engine.run(
          request({ operation: 'generate', images: [], width: 160, height: 96, numOutputImages: 2, quality }),
          live(),
        ),
      ).usage.outputTokens;
    expect(await tokens(undefined)).toBe(2 * Math.ceil((160 * 96) / 750));
    expect(await tokens('low')).toBeLessThan(await tokens('medium'));
    expect(await tokens('medium')).toBeLessThan(await tokens('high'));
    expect(await tokens('high')).toBe(await tokens('auto'));
    expect(await tokens('xhigh')).toBeLessThan(await tokens('max'));
  });
});

describe('sandbox prompt tokens', () => {
  it('sandbox:moderation refuses by moderation', async () => {
    expect(await engine.run(request({ prompt: 'a portrait sandbox:moderation' }), live())).toMatchObject({
      kind: 'moderated',
    });
  });

  it('sandbox:no-image finishes without an image', async () => {
    expect(await engine.run(request({ prompt: 'sandbox:no-image please' }), live())).toMatchObject({
      kind: 'no_image',
    });
  });

  it('sandbox:fail makes the engine fail', async () => {
    await expect(engine.run(request({ prompt: 'sandbox:fail' }), live())).rejects.toBeInstanceOf(SandboxEngineFailure);
  });

  it('sandbox:slow waits the seconds asked before working', async () => {
    const waits: number[] = [];
    const recorder: Wait = async (milliseconds) => {
      waits.push(milliseconds);
    };
    const outcome = await new SandboxEngine({ wait: recorder }).run(
      request({ prompt: 'slowly sandbox:slow=2.5' }),
      live(),
    );
    expect(waits.reduce((sum, ms) => sum + ms, 0)).toBeCloseTo(2500);
    expect(outcome.kind).toBe('images');
  });

  it('reports its progress rising through the slow wait and the rendering, ending at 1', async () => {
    const reports: number[] = [];
    await new SandboxEngine({ wait: async () => undefined }).run(
      request({ prompt: 'sandbox:slow=2' }),
      live(),
      (fraction) => reports.push(fraction),
    );
    expect(reports).toHaveLength(21);
    expect(reports).toEqual([...reports].sort((a, b) => a - b));
    expect(reports[0]).toBeCloseTo(0.045);
    expect(reports.at(-2)).toBeCloseTo(0.9);
    expect(reports.at(-1)).toBe(1);
  });

  it('an abort stops a slow run at once', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const running = engine.run(request({ prompt: 'sandbox:slow=3600' }), controller.signal);
    controller.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('an already aborted request does no work', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(engine.run(request(), controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('are read only as whole words', () => {
    expect(parseSandboxPrompt('a cat. sandbox:fail.')).toMatchObject({ fail: true });
    expect(parseSandboxPrompt('(sandbox:moderation)')).toMatchObject({ moderation: true });
    expect(parseSandboxPrompt('notsandbox:fail sandbox:failure sandbox:no-images x.sandbox:fail')).toEqual({
      moderation: false,
      noImage: false,
      fail: false,
      slowSeconds: 0,
    });
  });

  it('caps sandbox:slow at an hour and ignores malformed values', () => {
    expect(parseSandboxPrompt('sandbox:slow=9999').slowSeconds).toBe(3600);
    expect(parseSandboxPrompt('sandbox:slow=0.25').slowSeconds).toBe(0.25);
    expect(parseSandboxPrompt('sandbox:slow=abc sandbox:slow=-1 sandbox:slow=2.x').slowSeconds).toBe(0);
  });

  it('are all in the documentation table, which the engine contract reproduces', () => {
    const table = sandboxPromptTableMarkdown();
    for (const { token } of SANDBOX_PROMPT_TOKENS) expect(table).toContain(`\`${token}\``);
    expect(readFileSync(join(__dirname, '../../../../docs/engine-contract.md'), 'utf8')).toContain(table);
    expect(SANDBOX_PROMPT_TOKENS.map(({ token }) => token)).toEqual([
      'sandbox:moderation',
      'sandbox:no-image',
      'sandbox:fail',
      'sandbox:slow=<seconds>',
    ]);
  });
});

const pearson = (a: Buffer, b: Buffer): number => {
  const n = Math.min(a.length, b.length);
  let [sa, sb, saa, sbb, sab] = [0, 0, 0, 0, 0];
  for (let i = 0; i < n; i += 1) {
    sa += a[i];
    sb += b[i];
    saa += a[i] * a[i];
    sbb += b[i] * b[i];
    sab += a[i] * b[i];
  }
  return (n * sab - sa * sb) / Math.sqrt((n * saa - sa * sa) * (n * sbb - sb * sb));
};
