/**
 * Jest transform: TypeScript (and the ES-module-only @middy packages) to CommonJS with esbuild.
 * Type-checking is separate (`npm run typecheck`). esbuild is used rather than SWC because every one of
 * its platform packages is on the registry this project installs from, so `npm ci` stays exact.
 */
const { transformSync } = require('esbuild');

module.exports = {
  process(source, filename) {
    const { code, map } = transformSync(source, {
      loader: filename.endsWith('.ts') ? 'ts' : 'js',
      format: 'cjs',
      target: 'node20',
      sourcemap: 'external',
      sourcefile: filename,
      supported: { 'dynamic-import': false },
    });
    return { code, map };
  },
  getCacheKey(source, filename) {
    return require('node:crypto')
      .createHash('sha256')
      .update(filename)
      .update('\0')
      .update(source)
      .update('\0esbuild-v1')
      .digest('hex');
  },
};
