/**
 * A provider is a row and a folder (STYLE.md 21, 23): outside functions/adapters/engine/providers/<id>/, a
 * provider's id may appear in at most MAX_FILES production files (functions/, lib/, bin/), comments aside.
 * The row (functions/deployment/providers.ts) and the registry (providers/index.ts) are two of them.
 *
 * What counts: the id as a word in code or in a string, in any case, alone or as part of an identifier
 * (`fal`, 'fal', `falKey`, `FAL_KEY`, `FalApiKey`, `fal.media`); not a longer word it begins (`false`,
 * `FALLBACK`). Comments are removed by a small lexer of this file's own (TypeScript 7 ships no JavaScript
 * API to print a syntax tree); it keeps strings, templates and regular expressions, and is tested below.
 */
import fs from 'node:fs';
import path from 'node:path';
import { HOSTED_PROVIDER_IDS } from '../../../functions/deployment/providers';

const MAX_FILES = 4;
const ROOT = path.resolve(__dirname, '../../..');
const PRODUCTION = ['functions', 'lib', 'bin'];

const sourceFiles = (dir: string): string[] =>
  fs
    .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
    .flatMap((entry) => {
      const relative = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return sourceFiles(relative);
      return /\.(ts|js|cjs|mjs)$/.test(entry.name) && !entry.name.endsWith('.test.ts') ? [relative] : [];
    })
    .sort();

const KEYWORDS_BEFORE_EXPRESSION = new Set([
  'return',
  'typeof',
  'case',
  'do',
  'else',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'instanceof',
  'yield',
  'await',
]);

/**
 * The file's code without its comments: strings, template literals (and the code inside their `${…}`) and
 * regular expressions are kept as written. A `/` starts a regular expression where an expression may
 * start (after an operator, a bracket that opens, a comma or a keyword such as `return`), else it divides.
 */
const withoutComments = (text: string): string => {
  let out = '';
  let i = 0;
  /** One entry per template literal whose `${…}` is being read: the depth of braces opened inside it. */
  const templates: number[] = [];
  let lastSignificant = '';
  let lastWord = '';
  const readQuoted = (quote: string) => {
    const start = i++;
    while (i < text.length && text[i] !== quote && text[i] !== '\n') i += text[i] === '\\' ? 2 : 1;
    i++;
    out += text.slice(start, i);
  };
  /** Reads template text from i (just after a backtick or a `}` closing a `${`) to its end or its next `${`. */
  const readTemplate = () => {
    const start = i;
    while (i < text.length && text[i] !== '`' && !(text[i] === '$' && text[i + 1] === '{'))
      i += text[i] === '\\' ? 2 : 1;
    if (text[i] === '`') i++;
    else {
      i += 2;
      templates.push(0);
    }
    out += text.slice(start, i);
  };
  const readRegex = () => {
    const start = i++;
    let inClass = false;
    while (i < text.length && text[i] !== '\n' && (inClass || text[i] !== '/')) {
      if (text[i] === '[') inClass = true;
      else if (text[i] === ']') inClass = false;
      i += text[i] === '\\' ? 2 : 1;
    }
    i++;
    out += text.slice(start, i);
  };
  while (i < text.length) {
    const char = text[i] ?? '';
    const next = text[i + 1];
    if (char === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      continue;
    }
    if (char === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 2;
      out += ' ';
      continue;
    }
    if (char === "'" || char === '"') readQuoted(char);
    else if (char === '`') {
      out += text[i++];
      readTemplate();
    } else if (
      char === '/' &&
      (/^$|[(,=:[!&|?{};+\-*%<>~^]$/.test(lastSignificant) || KEYWORDS_BEFORE_EXPRESSION.has(lastWord))
    )
      readRegex();
    else if (char === '}' && templates.length > 0 && templates.at(-1) === 0) {
      templates.pop();
      out += text[i++];
      readTemplate();
    } else {
      if (templates.length > 0 && char === '{') templates[templates.length - 1] = (templates.at(-1) ?? 0) + 1;
      if (templates.length > 0 && char === '}') templates[templates.length - 1] = (templates.at(-1) ?? 0) - 1;
      out += char;
      i++;
      if (/\s/.test(char)) continue;
      lastSignificant = char;
      lastWord = /[A-Za-z_$]/.test(char) ? (/[A-Za-z0-9_$]/.test(text[i - 2] ?? '') ? lastWord + char : char) : '';
      continue;
    }
    lastSignificant = 'x';
    lastWord = '';
  }
  return out;
};

const isLetter = (char: string | undefined) => char !== undefined && /[A-Za-z]/.test(char);
const isLower = (char: string | undefined) => char !== undefined && /[a-z]/.test(char);
const isUpper = (char: string | undefined) => char !== undefined && /[A-Z]/.test(char);

/**
 * Whether `code` names `id`: a case-insensitive match bounded on each side by a non-letter or a camelCase
 * boundary (`getFalKey`: lower then upper), so `falKey` and `FAL_KEY` count and `false` does not.
 */
const namesProvider = (code: string, id: string): boolean => {
  const pattern = new RegExp(id.replace(/[^A-Za-z0-9]/g, '\\$&'), 'gi');
  for (const match of code.matchAll(pattern)) {
    const start = match.index;
    const end = start + match[0].length;
    const before = code[start - 1];
    const after = code[end];
    const startsWord = !isLetter(before) || (isLower(before) && isUpper(code[start]));
    const endsWord = !isLetter(after) || (isUpper(after) && isLower(code[end - 1]));
    if (startsWord && endsWord) return true;
  }
  return false;
};

const code = new Map(
  PRODUCTION.flatMap(sourceFiles).map((file) => [
    file,
    withoutComments(fs.readFileSync(path.join(ROOT, file), 'utf8')),
  ]),
);

/** The production files outside the provider's own folder whose code names it. */
const footprint = (id: string): string[] =>
  [...code.entries()]
    .filter(([file, text]) => !file.startsWith(`functions/adapters/engine/providers/${id}/`) && namesProvider(text, id))
    .map(([file]) => file);

describe('how a provider is named', () => {
  it.each([
    ['fal', true],
    ["'fal'", true],
    ['falKey', true],
    ['FAL_KEY', true],
    ['FalApiKey', true],
    ['getFalKey', true],
    ['fal.media', true],
    ['providers/fal/queue', true],
    ['false', false],
    ['FALSE', false],
    ['FALLBACK_ASPECT_RATIO', false],
    ['pitfall', false],
  ])('%s names fal: %s', (text, names) => {
    expect(namesProvider(text, 'fal')).toBe(names);
  });

  it('reads code without its comments, keeping strings', () => {
    const text = withoutComments("// fal\n/* falKey */ const url = 'https://queue.fal.run'; // FAL_KEY\n");
    expect(text).not.toMatch(/falKey|FAL_KEY|\/\/ fal/);
    expect(namesProvider(text, 'fal')).toBe(true);
  });

  it('keeps what looks like a comment inside a string, a template or a regular expression', () => {
    const text = withoutComments(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text the stripper reads
      "const a = 'x//fal'; const b = `${a}//FAL_KEY`; const c = x.replace(/\\/\\/+$/, ''); // gemini\nconst d = 2 / 1; // openai\nconst e = `${{ a: `/*`, b: '*/' }.a}` + '//falKey';\n",
    );
    expect(text).toContain("'x//fal'");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal as the stripper keeps it
    expect(text).toContain('`${a}//FAL_KEY`');
    expect(text).toContain('/\\/\\/+$/');
    expect(text).toContain("'//falKey'");
    expect(text).not.toMatch(/gemini|openai/);
  });
});

describe('a provider outside its folder', () => {
  it('reads the production code', () => {
    expect(code.size).toBeGreaterThan(100);
    expect(code.has('functions/deployment/providers.ts')).toBe(true);
  });

  it.each(HOSTED_PROVIDER_IDS)(`%s is named in at most ${MAX_FILES} production files`, (id) => {
    const files = footprint(id);
    if (files.length > MAX_FILES)
      throw new Error(`${id} is named in ${files.length} files outside its folder:\n  ${files.join('\n  ')}`);
    expect(files).toContain('functions/deployment/providers.ts');
  });
});
