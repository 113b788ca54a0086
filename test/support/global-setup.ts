/**
 * Made once here, before any file starts: the face models the sources' analyser reads (converted to ONNX
 * when they changed, bin/faces/build-models.ts), and against the synthesised assets (`TEST_RUNTIME=assets`)
 * the artefacts every test file's runtime serves (a cold synthesis takes longer than a hook).
 */
import { ensureAssets } from '../../bin/assets/build';
import { ensureFaceModels } from '../../bin/faces/build-models';

export default async (): Promise<void> => {
  ensureFaceModels();
  if (process.env.TEST_RUNTIME === 'assets') await ensureAssets();
};
