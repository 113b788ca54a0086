/**
 * Read first: the README is the front door and docs/ holds the rest, so a link between them that breaks
 * loses a page. Every link in README.md and in each markdown file under docs/ must lead to a file of this
 * repository (or into ../shared/, the project's spec and design beside it), and every #anchor to a heading
 * of its target, by GitHub's slug rules. Nothing links out to the web: a source outside is named in plain
 * text or code. The README stays a front door: at most 15 KB, with a link to every page of docs/.
 */
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '../../..');
const README_MAX_BYTES = 15 * 1024;

/** What the checker needs of a tree of files, by repository-relative POSIX path. */
interface Tree {
  exists(file: string): boolean;
  read(file: string): string;
}

/** Fenced code blocks become blank lines: nothing in them is a link or a heading. */
function withoutFences(text: string): string {
  let fence: string | undefined;
  return text
    .split('\n')
    .map((line) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === undefined) {
        if (marker) fence = marker;
        return marker ? '' : line;
      }
      if (marker?.[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
      return '';
    })
    .join('\n');
}

/** Inline code spans become spaces (a span ends at the same run of backticks, within its paragraph). */
const withoutCodeSpans = (text: string) =>
  text.replace(/(`+)((?:(?!\n\s*\n)[\s\S])*?)(?<!`)\1(?!`)/g, (span) => span.replace(/[^\n]/g, ' '));

/** GitHub's heading ids: lowercase, punctuation but `-` and `_` dropped, spaces to `-`, repeats `-1`, `-2`. */
function headingSlugs(markdown: string): Set<string> {
  const occurrences = new Map<string, number>();
  const slugs = new Set<string>();
  for (const line of withoutFences(markdown).split('\n')) {
    const heading = /^ {0,3}#{1,6}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const text = heading
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/`/g, '');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    // github-slugger's rule: a slug taken already gets the next free count of its base.
    let slug = base;
    while (occurrences.has(slug)) {
      const count = occurrences.get(base)! + 1;
      occurrences.set(base, count);
      slug = `${base}-${count}`;
    }
    occurrences.set(slug, 0);
    slugs.add(slug);
  }
  return slugs;
}

const LABEL = String.raw`(?:[^\[\]]|\[(?:[^\[\]]|\[[^\[\]]*\])*\])*`;
const LINK_PATTERNS = [
  new RegExp(String.raw`!?\[${LABEL}\]\(\s*<?([^)\s>]*)>?(?:\s+(?:"[^"]*"|'[^']*'))?\s*\)`, 'g'), // [text](target)
  /^ {0,3}\[[^\]]+\]:[ \t]*<?([^\s>]+)>?/gm, // [label]: target
  /<([a-z][a-z0-9+.-]{1,31}:[^\s<>]*)>/gi, // <scheme:…>
  /\b(?:href|src)\s*=\s*["']([^"']*)["']/gi, // HTML
];
/** What GitHub turns into a link by itself, outside code: https://…, http://…, www.… */
const BARE_URL = /(?:\bhttps?:\/\/|\bwww\.)[^\s<]*/gi;

/** The targets a page links to, in order. */
function linkTargets(markdown: string): string[] {
  let text = withoutCodeSpans(withoutFences(markdown));
  const targets: string[] = [];
  for (const pattern of LINK_PATTERNS) {
    text = text.replace(pattern, (match, target: string) => {
      targets.push(target);
      return ' '.repeat(match.length);
    });
  }
  for (const url of text.match(BARE_URL) ?? []) targets.push(url);
  return targets;
}

/** Every link of `file` that does not lead where it says, as "file: target: why". */
function linkProblems(tree: Tree, file: string): string[] {
  const problems: string[] = [];
  for (const target of linkTargets(tree.read(file))) {
    const problem = targetProblem(tree, file, target);
    if (problem) problems.push(`${file}: ${target}: ${problem}`);
  }
  return problems;
}

function targetProblem(tree: Tree, file: string, target: string): string | undefined {
  if (target === '') return 'an empty link';
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//') || /^www\./i.test(target))
    return 'leaves the repository (name an outside source in plain text)';
  const hash = target.indexOf('#');
  const pathPart = decodeURI(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  if (pathPart.startsWith('/')) return 'an absolute path (write it relative to the page)';
  const resolved = pathPart === '' ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart));
  if (resolved === '../shared' || resolved.startsWith('../shared/')) return undefined;
  if (resolved === '..' || resolved.startsWith('../')) return 'leaves the repository';
  if (!tree.exists(resolved)) return `no such file: ${resolved}`;
  if (anchor === undefined) return undefined;
  if (!resolved.endsWith('.md')) return 'an anchor into a file that is not markdown';
  return headingSlugs(tree.read(resolved)).has(anchor) ? undefined : `no heading #${anchor} in ${resolved}`;
}

const repository: Tree = {
  exists: (file) => fs.existsSync(path.join(ROOT, file)),
  read: (file) => fs.readFileSync(path.join(ROOT, file), 'utf8'),
};

/** README.md and every markdown file under docs/. */
function pages(): string[] {
  const docs = fs
    .readdirSync(path.join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.posix.join('docs', name.split(path.sep).join('/')));
  return ['README.md', ...docs.sort()];
}

describe('the README and docs/', () => {
  it('the README is at most 15 KB', () => {
    expect(Buffer.byteLength(repository.read('README.md'))).toBeLessThanOrEqual(README_MAX_BYTES);
  });

  it('every link leads to a file of the repository and every anchor to a heading in it', () => {
    expect(pages().flatMap((page) => linkProblems(repository, page))).toEqual([]);
  });

  it('the README links to every page of docs/', () => {
    const linked = new Set(linkTargets(repository.read('README.md')).map((target) => target.split('#')[0]));
    expect(pages().filter((page) => page !== 'README.md' && !linked.has(page))).toEqual([]);
  });
});

describe('the link check', () => {
  const valid: Record<string, string> = {
    'README.md': [
      '# Service',
      '',
      '## Same name',
      '',
      '## Same name',
      '',
      'See [the page](docs/page.md#section-two-and-more), [the second](#same-name-1), [the spec](../shared/spec/x.md),',
      '![a picture](docs/picture.png) and [the folder](docs/).',
      '',
      '```bash',
      'curl https://api.example.com/v1  # [not a link](https://example.com)',
      '```',
      '',
      'Plain code is no link: `[x](https://example.com)`, `OPENAI_BASE_URL` (`https://api.openai.com/v1`).',
    ].join('\n'),
    'docs/page.md':
      '# Page\n\n## Section `two`, and more!\n\n[Back](../README.md#service) and [its spec](../../shared/DESIGN.md).\n',
    'docs/picture.png': '',
  };
  const tree = (files: Record<string, string>): Tree => ({
    exists: (file) =>
      file in files || Object.keys(files).some((name) => name.startsWith(`${file.replace(/\/$/, '')}/`)),
    read: (file) => files[file]!,
  });
  const problemsWith = (readme: string) =>
    ['README.md', 'docs/page.md'].flatMap((file) => linkProblems(tree({ ...valid, 'README.md': readme }), file));

  it('finds nothing wrong in a valid pair of pages', () => {
    expect(problemsWith(valid['README.md']!)).toEqual([]);
  });

  it.each([
    ['a missing file', '[gone](docs/gone.md)', 'no such file: docs/gone.md'],
    ['a missing anchor', '[nowhere](docs/page.md#section-three)', 'no heading #section-three in docs/page.md'],
    ['a missing anchor on the same page', '[nowhere](#same-name-2)', 'no heading #same-name-2 in README.md'],
    ['an anchor cased unlike the slug', '[case](#Service)', 'no heading #Service in README.md'],
    ['an https link', '[web](https://example.com/docs)', 'leaves the repository'],
    ['a protocol-relative link', '[web](//example.com)', 'leaves the repository'],
    ['a mailto link', '[mail](mailto:ops@example.com)', 'leaves the repository'],
    ['an autolink', '<https://example.com>', 'leaves the repository'],
    ['a bare URL GitHub links by itself', 'see https://example.com today', 'leaves the repository'],
    ['a reference definition', '[web]: https://example.com', 'leaves the repository'],
    ['an HTML link', '<a href="https://example.com">web</a>', 'leaves the repository'],
    ['a path out of the repository', '[next door](../other/README.md)', 'leaves the repository'],
    ['an absolute path', '[root](/docs/page.md)', 'an absolute path'],
    ['an anchor into a file that is not markdown', '[line](docs/picture.png#L3)', 'not markdown'],
  ])('finds %s', (_, line, why) => {
    const problems = problemsWith(`${valid['README.md']}\n\n${line}\n`);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(why);
  });

  it('slugs headings as GitHub does', () => {
    const slugs = headingSlugs(
      [
        '# Configuration (environment of the functions)',
        '## Face identity: the model, the thresholds, pets',
        '### The `MATCH_THRESHOLD` rule',
        '## Tests',
        '## Tests',
        '## Tests',
        '```',
        '# not a heading',
        '```',
      ].join('\n'),
    );
    expect([...slugs]).toEqual([
      'configuration-environment-of-the-functions',
      'face-identity-the-model-the-thresholds-pets',
      'the-match_threshold-rule',
      'tests',
      'tests-1',
      'tests-2',
    ]);
  });
});
