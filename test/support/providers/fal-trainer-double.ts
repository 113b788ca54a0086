/**
 * The fal double's trainer app and LoRA endpoints (issue 42), kept beside fal-double.ts, which routes to them.
 *
 * Sources (retrieved for issue 42): @fal-ai/client 1.10.1 src/types/endpoints.d.ts —
 * `Flux2TrainerInput` (image_data_url: a zip of images, each with an optional ROOT.txt caption; without a
 * caption and without `default_caption` "the training will fail"; steps, learning_rate, default_caption,
 * output_lora_format), `Flux2TrainerOutput` ({diffusers_lora_file, config_file}: File), `Flux2LoraInput` /
 * `Flux2LoraEditInput` (loras: LoRAInput[] ≤ 3 with `path` and `scale` 0–4; the edit takes ≤ 3 image_urls);
 * fal's platform API `DELETE /v1/models/requests/{request_id}/payloads`
 * (https://fal.ai/docs/platform-apis/v1/models/requests/payloads).
 * The zip is read as any zip reader would (central directory; stored or deflated entries).
 */
import { inflateRawSync } from 'node:zlib';
import type { EndpointTypeMap } from '@fal-ai/client/endpoints';
import * as v from 'valibot';

const httpUrl = v.pipe(v.string(), v.url(), v.regex(/^https?:\/\//, 'must be an http(s) URL'));

export const Flux2TrainerInputSchema = v.strictObject({
  image_data_url: httpUrl,
  steps: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
  learning_rate: v.optional(v.pipe(v.number(), v.minValue(0))),
  default_caption: v.optional(v.string()),
  output_lora_format: v.optional(v.picklist(['fal', 'comfy'])),
});

export const LorasSchema = v.pipe(
  v.array(
    v.strictObject({
      path: v.pipe(v.string(), v.minLength(1)),
      scale: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(4))),
    }),
  ),
  v.maxLength(3),
);

type Assignable<A, B> = [A] extends [B] ? ([Exclude<keyof A, keyof B>] extends [never] ? true : false) : false;
type Assert<T extends true> = T;
export type TrainerSchemaMatchesClientTypes = [
  Assert<Assignable<v.InferOutput<typeof Flux2TrainerInputSchema>, EndpointTypeMap['fal-ai/flux-2-trainer']['input']>>,
  Assert<
    Assignable<v.InferOutput<typeof LorasSchema>, NonNullable<EndpointTypeMap['fal-ai/flux-2/lora']['input']['loras']>>
  >,
];

export const TRAINER_ENDPOINT = 'fal-ai/flux-2-trainer';

/** One zip entry. */
export interface ZipEntry {
  name: string;
  data: Buffer;
}

/** The entries of a zip: its end record, its central directory, each local header and data (stored or deflated). */
export const readZip = (zip: Buffer): ZipEntry[] => {
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at -= 1) {
    if (zip.readUInt32LE(at) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip: no end of central directory record');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let index = 0; index < count; index += 1) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('a broken central directory');
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const comment = zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const dataAt = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(dataAt, dataAt + compressed);
    if (method !== 0 && method !== 8) throw new Error(`${name}: compression method ${method}`);
    entries.push({ name, data: method === 8 ? inflateRawSync(raw) : Buffer.from(raw) });
    at += 46 + nameLength + extra + comment;
  }
  return entries;
};

/** What the trainer found in a zip: its images, their captions, and what fal would refuse. */
export interface TrainingSet {
  images: string[];
  captions: Record<string, string>;
  problems: string[];
}

const IMAGE = /\.(jpe?g|png|webp)$/i;

export const checkTrainingSet = (entries: ZipEntry[], defaultCaption: string | undefined): TrainingSet => {
  const images = entries.filter((entry) => IMAGE.test(entry.name)).map((entry) => entry.name);
  const captions: Record<string, string> = {};
  const problems: string[] = [];
  for (const image of images) {
    const root = image.replace(IMAGE, '');
    const caption = entries.find((entry) => entry.name === `${root}.txt`)?.data.toString('utf8');
    if (caption === undefined && defaultCaption === undefined)
      problems.push(`${image} has no caption (${root}.txt) and no default_caption was given`);
    captions[image] = caption ?? defaultCaption ?? '';
  }
  if (images.length === 0) problems.push('the zip holds no images');
  for (const entry of entries)
    if (
      IMAGE.test(entry.name) &&
      !entry.data.subarray(0, 2).equals(Buffer.from([0xff, 0xd8])) &&
      !entry.data.subarray(1, 4).equals(Buffer.from('PNG'))
    )
      problems.push(`${entry.name} is not an image`);
  return { images, captions, problems };
};

/** A LoRA file as fal's trainer answers it: safetensors (an 8-byte header length, a JSON header, the weights). */
export const loraFile = (seed: string): Buffer => {
  const header = Buffer.from(JSON.stringify({ __metadata__: { trained_by: 'fal double', seed } }));
  const length = Buffer.alloc(8);
  length.writeBigUInt64LE(BigInt(header.length));
  return Buffer.concat([length, header, Buffer.alloc(4096, 7)]);
};
