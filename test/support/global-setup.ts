/**
 * Made once here, before any file starts: the face models the sources' analyser reads (converted to ONNX
 * when they changed, bin/faces/build-models.ts), and against the synthesised assets (`TEST_RUNTIME=assets`)
 * the artefacts every test file's runtime serves (a cold synthesis takes longer than a hook).
 */
import { ensureAssets } from '../../bin/assets/build';
import { ensureFaceModels } from '../../bin/faces/build-models';

export default async (): Promise<void> => {
  // onnxruntime-node's telemetry, off as the analyser turns it off (onnx-face-analyzer.ts), also for the
  // sessions tests make themselves: set here, in the process the workers inherit their environment from
  // (a test file's `process.env` is a copy the native runtime does not read).
  process.env.ORT_DISABLE_TELEMETRY = '1';
  ensureFaceModels();
  if (process.env.TEST_RUNTIME === 'assets') await ensureAssets();
};
