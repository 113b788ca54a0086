/**
 * The portal's script and style as the handler serves them. In the Lambda asset they lie beside the bundle
 * (the portal function's bundling writes them there: lib/constructs/api.ts), since Lambda has no esbuild;
 * run from the sources (npm start, the integration tests), they are built from ./app when first needed.
 * Either way build.ts makes them, with the same esbuild and options, so the bytes are the same.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PORTAL_ASSET_FILES, type PortalAssets } from './asset-files';

const besideBundle = (directory: string): PortalAssets | undefined => {
  const [script, style] = [PORTAL_ASSET_FILES.script, PORTAL_ASSET_FILES.style].map((file) =>
    path.join(directory, file),
  );
  if (!script || !style || !fs.existsSync(script) || !fs.existsSync(style)) return undefined;
  return { script: fs.readFileSync(script, 'utf8'), style: fs.readFileSync(style, 'utf8') };
};

export const loadPortalAssets = (): PortalAssets => {
  const shipped = besideBundle(__dirname);
  if (shipped) return shipped;
  // A computed path, not a literal, so that the Lambda bundling does not follow it into esbuild: the shipped
  // asset carries the built files instead (and, without them, fails to load rather than serve no script).
  const build: typeof import('./build') = require(path.join(__dirname, 'build'));
  return build.buildPortalAssets();
};
