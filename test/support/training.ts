/**
 * What a profile-training test file runs against: a photo server holding a training set of the subject
 * (`serveSubjectPhotos`) and the local runtime, started before the file's tests and closed after them.
 */
import type { LocalRuntimeOptions } from '../../bin/local-aws/runtime';
import { type PhotoServer, serveSubjectPhotos, startPhotoServer } from './photos';
import { startTestRuntime, type TestRuntime } from './runtime';

export interface TrainingWorld {
  runtime: TestRuntime;
  photos: PhotoServer;
  /** The training set's URLs, p0 to p<count - 1>. */
  photoUrls: string[];
}

export const useTrainingWorld = (options: {
  /** How many photos of the subject the set holds, and their format. */
  count: number;
  format?: 'png' | 'jpeg';
  /** How long the photo server waits before each answer. */
  delayMs?: number;
  runtime?: Partial<LocalRuntimeOptions>;
  /** Runs before the runtime closes (trainings a test left running end first). */
  beforeClose?: () => Promise<void>;
}): TrainingWorld => {
  const world = {} as TrainingWorld;
  beforeAll(async () => {
    world.photos = await startPhotoServer({ delayMs: options.delayMs });
    world.photoUrls = await serveSubjectPhotos(world.photos, options.count, options.format);
    world.runtime = await startTestRuntime(options.runtime);
  });
  afterAll(async () => {
    await options.beforeClose?.();
    await world.runtime.close();
    await world.photos.close();
  });
  return world;
};
