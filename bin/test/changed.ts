/**
 * `npm run test:changed`: the unit and infrastructure tests of what changed since main, the inner loop's
 * tests (`npm run test:quick` runs it after lint and typecheck). "Changed" is what this branch changed
 * since it left main (`git diff main...HEAD`) plus what is not committed yet (staged, unstaged,
 * untracked); Jest's --findRelatedTests then picks every test under test/unit or test/infra that imports
 * one of those files, directly or not. The integration, artefact and data-layer suites are left to
 * `npm test`, and so is a file no test imports (a state machine's ASL, a page of docs). TEST_BASE names
 * another base than main.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT_DIR = path.resolve(__dirname, '../..');
const BASE = process.env.TEST_BASE ?? 'main';

const git = (...args: string[]): string[] => {
  const run = spawnSync('git', args, { cwd: ROOT_DIR, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${run.stderr.trim()}`);
  return run.stdout.split('\n').filter((line) => line !== '');
};

const changedFiles = (): string[] => {
  const files = new Set([
    ...git('diff', '--name-only', `${BASE}...HEAD`),
    ...git('diff', '--name-only', 'HEAD'),
    ...git('ls-files', '--others', '--exclude-standard'),
  ]);
  // A deleted file has no tests left to relate; its importers changed too, or typecheck fails.
  return [...files]
    .filter((file) => fs.statSync(path.join(ROOT_DIR, file), { throwIfNoEntry: false })?.isFile())
    .sort();
};

const main = () => {
  const files = changedFiles();
  console.log(`Changed since ${BASE} (committed or not): ${files.length} file(s).`);
  if (files.length === 0) return;
  const jest = spawnSync(
    'npx',
    [
      'jest',
      // The sources are roots too, so that Jest's dependency graph reaches from a changed source to its tests.
      ...['test', 'functions', 'bin', 'lib'].flatMap((root) => ['--roots', `<rootDir>/${root}`]),
      '--testPathIgnorePatterns',
      '<rootDir>/test/(?!unit/|infra/)',
      '--passWithNoTests',
      '--findRelatedTests',
      ...files,
    ],
    { cwd: ROOT_DIR, stdio: 'inherit' },
  );
  process.exitCode = jest.status ?? 1;
};

main();
