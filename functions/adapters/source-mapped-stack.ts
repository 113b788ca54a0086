/**
 * A stack trace mapped back to the TypeScript sources when an error is logged, not when a function starts.
 * Node's `--enable-source-maps` parses a bundle's whole map while the bundle loads: about 40 ms of an image
 * function's cold start (docs/benchmarks.md), paid on every start for the rare error. Instead each frame in
 * a bundled file (`/var/task/index.js:1:2345`) is looked up in the map shipped beside it (`index.js.map`),
 * read and parsed the first time an error from that file is logged, then kept. A frame with no map (node's
 * own, a package's, a run that maps stacks itself) is left as it is.
 */
import fs from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';

/** Parsed maps by bundle file; null when the file has none (or it cannot be read). */
const maps = new Map<string, SourceMap | null>();

const mapOf = (file: string): SourceMap | null => {
  let map = maps.get(file);
  if (map === undefined) {
    try {
      map = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, 'utf8')) as SourceMapPayload);
    } catch {
      map = null;
    }
    maps.set(file, map);
  }
  return map;
};

/** `    at name (/path/file.js:12:34)` or `    at /path/file.js:12:34`: the prefix, file, line, column, suffix. */
const FRAME = /^(\s*at (?:.+ \()?)(\/[^():]+\.[cm]?js):(\d+):(\d+)(\)?)$/;

const mappedFrame = (line: string): string => {
  const frame = FRAME.exec(line);
  if (!frame) return line;
  const [, prefix, file, lineText, columnText, suffix] = frame;
  const entry = mapOf(file)?.findEntry(Number(lineText) - 1, Number(columnText) - 1);
  if (!entry || !('originalSource' in entry) || !entry.originalSource) return line;
  return `${prefix}${entry.originalSource}:${entry.originalLine + 1}:${entry.originalColumn + 1}${suffix}`;
};

export const sourceMappedStack = (stack: string | undefined): string | undefined => {
  if (stack === undefined || process.sourceMapsEnabled) return stack;
  try {
    return stack.split('\n').map(mappedFrame).join('\n');
  } catch {
    return stack; // a map that cannot be read is no reason to lose the error
  }
};
