/**
 * Against the synthesised assets (`TEST_RUNTIME=assets`), every test file's runtime serves the same
 * artefacts: they are made once here, before any file starts (a cold synthesis takes longer than a hook).
 */
import { ensureAssets } from '../../bin/assets/build';

export default async (): Promise<void> => {
  if (process.env.TEST_RUNTIME === 'assets') await ensureAssets();
};
