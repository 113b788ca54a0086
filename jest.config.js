/**
 * Jest runs TypeScript through esbuild (type-checking is `npm run typecheck`, separately).
 * @middy/* ships only ES modules, so it is transformed too.
 */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Packaging tests install sharp for linux-arm64 from the npm registry: `npm run test:packaging`.
  testPathIgnorePatterns: process.env.PACKAGING_TESTS === '1' ? [] : ['/test/packaging/'],
  transform: { '^.+\\.(t|j|mj)s$': '<rootDir>/test/support/esbuild-transform.js' },
  transformIgnorePatterns: ['/node_modules/(?!(@middy)/)'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  testTimeout: 30000,
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
