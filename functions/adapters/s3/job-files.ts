/**
 * Where a job's files live in the bucket: its inputs (kept for the async workflow; the bucket's lifecycle
 * expires them, lib/constructs/data.ts) under `inputs/<account>/<job>/`, and its outputs under
 * `outputs/<account>/<job>/<n>.<ext>`, which download links point at.
 */
import type { DecodedImage, OutputFormat } from '../../domain/engine/engine';
import { contentTypeOf, imageFormatOf, inputContentTypeOf } from '../../domain/engine/engine';
import type { StoredInput } from '../../domain/jobs/job';
import type { ObjectStore } from './object-store';

const OUTPUT_EXTENSION = { png: 'png', jpg: 'jpg' } as const;

export const inputPrefix = (accountId: string, jobId: string) => `inputs/${accountId}/${jobId}/`;
export const outputKey = (accountId: string, jobId: string, index: number, format: OutputFormat) =>
  `outputs/${accountId}/${jobId}/${index + 1}.${OUTPUT_EXTENSION[format]}`;

const loadAll = (objects: ObjectStore, keys: string[], what: string) =>
  Promise.all(
    keys.map(async (key) => {
      const stored = await objects.get(key);
      if (!stored) throw new Error(`${what} ${key} is missing`);
      return stored.body;
    }),
  );

export const jobInputs = (objects: ObjectStore) => ({
  save: (accountId: string, jobId: string, images: DecodedImage[]): Promise<StoredInput[]> =>
    Promise.all(
      images.map(async (image, index) => {
        const key = `${inputPrefix(accountId, jobId)}${index + 1}`;
        await objects.put(key, image.data, inputContentTypeOf(image.format));
        return { key, format: image.format, width: image.width, height: image.height };
      }),
    ),
  remove: async (accountId: string, jobId: string): Promise<void> => {
    await objects.deletePrefix(inputPrefix(accountId, jobId));
  },
  load: async (inputs: StoredInput[]): Promise<DecodedImage[]> => {
    const bodies = await loadAll(
      objects,
      inputs.map((input) => input.key),
      'input',
    );
    // The label is read from the bytes, so an input stored under another label is sent as what it is.
    return inputs.map((input, index) => {
      const data = bodies[index] as Buffer;
      return { data, format: imageFormatOf(data) ?? input.format, width: input.width, height: input.height };
    });
  },
});

export const jobOutputs = (objects: ObjectStore) => ({
  load: (keys: string[]): Promise<Buffer[]> => loadAll(objects, keys, 'output'),
  save: (accountId: string, jobId: string, images: Buffer[], format: OutputFormat): Promise<string[]> =>
    Promise.all(
      images.map(async (image, index) => {
        const key = outputKey(accountId, jobId, index, format);
        await objects.put(key, image, contentTypeOf(format));
        return key;
      }),
    ),
});
