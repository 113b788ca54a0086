/**
 * Stacks mapped to the sources when an error is logged: a bundle built as a function's is (esbuild,
 * minified whitespace, a source map beside it), run by plain node without --enable-source-maps.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';

const MODULE = path.join(__dirname, '..', '..', '..', 'functions', 'adapters', 'source-mapped-stack.ts');

let dir: string;
let bundle: string;

const run = (...nodeOptions: string[]) =>
  JSON.parse(execFileSync(process.execPath, [...nodeOptions, bundle], { encoding: 'utf8' })) as {
    raw: string;
    mapped: string;
  };

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mapped-stack-'));
  fs.writeFileSync(
    path.join(dir, 'thrower.ts'),
    // The written file's own template literal, as source text.
    ['export const fail = (what: string): never => {', '  throw new Error(`no $' + '{what}`);', '};', ''].join('\n'),
  );
  fs.writeFileSync(
    path.join(dir, 'entry.ts'),
    [
      `import { sourceMappedStack } from ${JSON.stringify(MODULE)};`,
      "import { fail } from './thrower';",
      'try {',
      "  fail('luck');",
      '} catch (error) {',
      '  const raw = (error as Error).stack;',
      '  process.stdout.write(JSON.stringify({ raw, mapped: sourceMappedStack(raw) }));',
      '}',
      '',
    ].join('\n'),
  );
  bundle = path.join(dir, 'index.js');
  buildSync({
    entryPoints: [path.join(dir, 'entry.ts')],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    sourcemap: true,
    sourcesContent: false,
    minifyWhitespace: true,
    minifySyntax: true,
  });
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('sourceMappedStack', () => {
  it('maps the frames of a bundle to the TypeScript lines that threw', () => {
    const { raw, mapped } = run();
    expect(raw).toMatch(/index\.js:\d+:\d+/);
    expect(raw).not.toContain('thrower.ts');
    const lines = mapped.split('\n');
    expect(lines[0]).toBe('Error: no luck');
    expect(lines[1]).toMatch(/^\s+at fail \(.*thrower\.ts:2:\d+\)$/);
    expect(lines.some((line) => /entry\.ts:4:\d+/.test(line))).toBe(true);
    // node's own frames are left as they are
    expect(lines.filter((line) => line.includes('node:internal'))).toEqual(
      raw.split('\n').filter((line) => line.includes('node:internal')),
    );
  });

  it('leaves the stack alone when node already maps it', () => {
    const { raw, mapped } = run('--enable-source-maps');
    expect(raw).toContain('thrower.ts');
    expect(mapped).toBe(raw);
  });

  it('leaves a frame alone when its file has no map', () => {
    fs.renameSync(`${bundle}.map`, `${bundle}.map.away`);
    try {
      const { raw, mapped } = run();
      expect(mapped).toBe(raw);
    } finally {
      fs.renameSync(`${bundle}.map.away`, `${bundle}.map`);
    }
  });

  it('passes an absent stack through', () => {
    // the module itself, in this process (its stacks come from jest's transform, with no map beside them)
    const { sourceMappedStack } =
      jest.requireActual<typeof import('../../../functions/adapters/source-mapped-stack')>(MODULE);
    expect(sourceMappedStack(undefined)).toBeUndefined();
    const here = new Error('here').stack;
    expect(sourceMappedStack(here)).toBe(here);
  });
});
