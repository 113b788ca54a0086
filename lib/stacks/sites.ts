/** Functions mounted on paths of their own, outside the versioned API and its route table. */
import * as path from 'node:path';
import type { PORTAL_ROUTE } from '../../functions/portal/route';
import type { BuildSteps } from '../constructs/function-defaults';
import type { GroupSite } from './route-group';

/**
 * The portal page's script and style, bundled by esbuild from functions/portal/ui/app and written beside
 * the portal function's bundle (functions/portal/ui/build.ts), because Lambda has no esbuild to build them
 * at run time. The same module builds them in memory when the handler runs from the sources.
 */
const portalAssetBuild: BuildSteps = (inputDir, outputDir) => [
  `node "${path.posix.join(inputDir, 'node_modules/tsx/dist/cli.mjs')}" "${path.posix.join(inputDir, 'functions/portal/ui/build.ts')}" "${outputDir}"`,
];

/** The developer portal: `ANY` on its paths, in the portal group's stack. */
export const portalSite = (portal: typeof PORTAL_ROUTE): GroupSite => ({
  handler: portal.handler,
  paths: portal.paths,
  name: 'developer portal',
  description: `ANY ${portal.paths.join(', ')}: the developer portal`,
  access: portal.access,
  buildSteps: portalAssetBuild,
});
