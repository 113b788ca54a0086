/** The image engine the configuration names: the sandbox on sharp, or a GPU backend over HTTPS. */
import type { ImageEngine } from '../../domain/images/engine';
import { HttpEngine } from './http-engine';
import { SandboxEngine } from './sandbox-engine';

/** The candidates' reference crops (CandidateFace.referenceKeys), as bytes or as short-lived URLs for a backend. */
export interface ReferenceImages {
  load(key: string): Promise<Buffer>;
  url(key: string): Promise<string>;
  /**
   * Stores bytes (a caller's input image, a contact sheet) under the bucket's `inputs/` prefix, keyed by
   * their hash, and answers a short-lived presigned GET URL: for providers that take inputs by URL (fal).
   */
  share(data: Buffer, contentType: string): Promise<string>;
}

export const imageEngine = (options: {
  engine: 'sandbox' | 'http';
  url?: string;
  token: () => Promise<string>;
  references: ReferenceImages;
}): ImageEngine => {
  if (options.engine === 'sandbox') return new SandboxEngine({ referenceImage: options.references.load });
  const baseUrl = options.url;
  if (!baseUrl) throw new Error('ENGINE=http needs ENGINE_URL');
  let engine: Promise<ImageEngine> | undefined;
  return {
    run: async (request, signal) => {
      engine =
        engine ??
        options.token().then((token) => new HttpEngine({ baseUrl, token, referenceUrl: options.references.url }));
      return (await engine).run(request, signal);
    },
  };
};
