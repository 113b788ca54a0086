/**
 * Read first: how the portal's browser code becomes the two files its page loads. `app/main.ts` (and what
 * it imports) is bundled by esbuild into one script, `app/portal.css` into one style sheet, both minified.
 * Called in two places, with these same options, so both runtimes serve the same bytes under the same
 * content-hashed names:
 * - at synth, by the portal function's bundling (an afterBundling command: lib/constructs/api.ts), which
 *   runs this file to write them beside index.js: `tsx functions/portal/ui/build.ts <directory>`;
 * - run from the sources, by assets.ts, in memory.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type BuildOptions, buildSync } from 'esbuild';
import { PORTAL_ASSET_FILES, type PortalAssets } from './asset-files';

const APP_DIR = path.join(__dirname, 'app');

const COMMON: BuildOptions = {
  absWorkingDir: APP_DIR,
  bundle: true,
  minify: true,
  // The page is served as UTF-8: text such as "—" stays as written, not escaped.
  charset: 'utf8',
  legalComments: 'none',
  write: false,
  logLevel: 'silent',
};

const bundle = (entry: string, options: BuildOptions = {}): string => {
  const { outputFiles } = buildSync({ ...COMMON, ...options, entryPoints: [path.join(APP_DIR, entry)] });
  const [output] = outputFiles ?? [];
  if (!output) throw new Error(`esbuild wrote nothing for ${entry}`);
  return output.text;
};

export const buildPortalAssets = (): PortalAssets => ({
  script: bundle('main.ts', {
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    tsconfig: path.join(APP_DIR, 'tsconfig.json'),
  }),
  style: bundle('portal.css'),
});

/** Writes both files into `directory` (the function's bundle). */
export const writePortalAssets = (directory: string): void => {
  const assets = buildPortalAssets();
  fs.writeFileSync(path.join(directory, PORTAL_ASSET_FILES.script), assets.script);
  fs.writeFileSync(path.join(directory, PORTAL_ASSET_FILES.style), assets.style);
};

if (require.main === module) {
  const [directory] = process.argv.slice(2);
  if (!directory || !fs.statSync(directory, { throwIfNoEntry: false })?.isDirectory()) {
    process.stderr.write('usage: tsx functions/portal/ui/build.ts <existing output directory>\n');
    process.exit(2);
  }
  writePortalAssets(directory);
}
