/**
 * Read first: how a function gets its dependencies.
 *
 * There is no composition root that wires everything: each module of this folder builds what one part
 * of the domain needs, from the adapters that part uses, and a handler imports only the module it calls.
 * esbuild follows imports, so this is what keeps sharp out of the functions that never touch an image
 * (STYLE.md 13): only inputs.ts, images.ts, image-engine.ts, photo-training.ts and preflight.ts import
 * image adapters, only faces.ts the face analyser (onnxruntime and the models, which the stack ships to
 * those functions alone), and the S3, SFN, SQS and Secrets Manager clients load only where storage.ts,
 * workflows.ts, queues.ts and secrets.ts are imported.
 *
 * Everything is built once per process (a Lambda cold start, or the local runtime) on first use, and
 * forgotten by `resetComposition`, which the local runtime calls after it changes the environment.
 */

import { createLogger } from '../adapters/logger';
import { emfMeter } from '../adapters/metrics';
import { config, resetConfig, type ServiceConfig } from '../deployment/settings';
import { type Clock, systemClock } from '../domain/shared/clock';
import { newId } from '../domain/shared/ids';

const resets = new Set<() => void>();

/** A value built on first use and kept until `resetComposition`. */
export const once = <T>(build: () => T): (() => T) => {
  let built: { value: T } | undefined;
  resets.add(() => {
    built = undefined;
  });
  return () => {
    built = built ?? { value: build() };
    return built.value;
  };
};

let processClock: Clock = systemClock;

/** The clock of this process; tests of the local runtime move it instead of sleeping. */
export const clock: Clock = () => processClock();

export { newId };

export const settings = (): ServiceConfig => config();

export const log = once(() => createLogger(settings().LOG_LEVEL));

/** Business metrics of this process (embedded metric format). */
export const meter = once(() => emfMeter());

/** Forget everything built: the configuration is read again, and `useClock` applies from here on. */
export const resetComposition = (useClock: Clock = systemClock): void => {
  resetConfig();
  processClock = useClock;
  for (const reset of resets) reset();
};
