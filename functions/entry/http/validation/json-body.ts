/**
 * A request body's JSON, refused as FastAPI refuses it: Python's `json.loads` reason at Python's
 * character position, and jiter's recursion limit.
 */
import { RequestValidationError, type ValidationDetail } from './pydantic-errors';

class JsonFault {
  constructor(
    readonly error: string,
    readonly position: number,
  ) {}
}

/**
 * Where and why Python's `json.loads` (CPython's scanner, 3.13 wording) rejects `text`, counted in
 * characters as Python counts them. Called only once JSON.parse has refused the text, so NaN and
 * Infinity, which Python would take, are refused here too.
 */
const pythonJsonFault = (text: string): JsonFault => {
  const s = Array.from(text);
  const n = s.length;
  const fail = (error: string, position: number): never => {
    throw new JsonFault(error, position);
  };
  const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
  const isHex = (c: string | undefined) => c !== undefined && /^[0-9a-fA-F]$/.test(c);
  const isSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
  // One code point each: below a space is exactly U+0000 to U+001F.
  const isControl = (c: string | undefined) => c !== undefined && c < ' ';
  const isEscape = (c: string | undefined) => c !== undefined && c.length === 1 && '"\\/bfnrt'.includes(c);
  const skipSpace = (i: number) => {
    while (i < n && isSpace(s[i])) i++;
    return i;
  };
  const string = (start: number): number => {
    let i = start;
    for (;;) {
      while (i < n && s[i] !== '"' && s[i] !== '\\') {
        if (isControl(s[i])) fail('Invalid control character at', i);
        i++;
      }
      if (i >= n) fail('Unterminated string starting at', start - 1);
      if (s[i] === '"') return i + 1;
      i++;
      if (i === n) fail('Unterminated string starting at', start - 1);
      if (s[i] !== 'u') {
        if (!isEscape(s[i])) fail('Invalid \\escape', i - 1);
        i++;
        continue;
      }
      const end = i + 5;
      if (end >= n) fail('Invalid \\uXXXX escape', i);
      for (let h = i + 1; h < end; h++) if (!isHex(s[h])) fail('Invalid \\uXXXX escape', i);
      const unit = parseInt(s.slice(i + 1, end).join(''), 16);
      i = end;
      if (unit >= 0xd800 && unit <= 0xdbff && end + 6 < n && s[end] === '\\' && s[end + 1] === 'u') {
        for (let h = end + 2; h < end + 6; h++) if (!isHex(s[h])) fail('Invalid \\uXXXX escape', end + 1);
        const low = parseInt(s.slice(end + 2, end + 6).join(''), 16);
        if (low >= 0xdc00 && low <= 0xdfff) i = end + 6;
      }
    }
  };
  const number = (start: number): number => {
    let i = start;
    if (s[i] === '-') i++;
    if (s[i] === '0') i++;
    else if (isDigit(s[i])) while (isDigit(s[i])) i++;
    else fail('Expecting value', start);
    if (i < n - 1 && s[i] === '.' && isDigit(s[i + 1])) {
      i += 2;
      while (isDigit(s[i])) i++;
    }
    if (i < n - 1 && (s[i] === 'e' || s[i] === 'E')) {
      const exponent = i++;
      if (i < n - 1 && (s[i] === '-' || s[i] === '+')) i++;
      while (isDigit(s[i])) i++;
      if (!isDigit(s[i - 1])) i = exponent;
    }
    return i;
  };
  /** After `{` or `,` in an object: the key and its colon; returns where the member's value starts. */
  const memberKey = (i: number): number => {
    if (s[i] !== '"') fail('Expecting property name enclosed in double quotes', i);
    i = skipSpace(string(i + 1));
    if (s[i] !== ':') fail("Expecting ':' delimiter", i);
    return skipSpace(i + 1);
  };
  // Iterative, with the open containers on a stack: a body nested thousands deep must not overflow ours.
  const open: Array<'}' | ']'> = [];
  const read = (): number => {
    let i = skipSpace(0);
    for (;;) {
      if (i >= n) fail('Expecting value', i);
      if (s[i] === '{' || s[i] === '[') {
        const close = s[i] === '{' ? '}' : ']';
        i = skipSpace(i + 1);
        if (s[i] !== close) {
          open.push(close);
          if (close === '}') i = memberKey(i);
          continue;
        }
        i++;
      } else if (s[i] === '"') {
        i = string(i + 1);
      } else {
        const word = ['null', 'true', 'false'].find((w) => s.slice(i, i + w.length).join('') === w);
        i = word ? i + word.length : number(i);
      }
      // A value ended at i: close what it ends, or move on to the next item.
      for (;;) {
        const close = open.at(-1);
        if (close === undefined) return skipSpace(i);
        i = skipSpace(i);
        if (s[i] !== close) break;
        open.pop();
        i++;
      }
      if (s[i] !== ',') fail("Expecting ',' delimiter", i);
      const comma = i;
      i = skipSpace(i + 1);
      if (s[i] === open.at(-1))
        fail(`Illegal trailing comma before end of ${open.at(-1) === '}' ? 'object' : 'array'}`, comma);
      if (open.at(-1) === '}') i = memberKey(i);
    }
  };
  try {
    return new JsonFault('Extra data', read());
  } catch (fault) {
    if (fault instanceof JsonFault) return fault;
    throw fault;
  }
};

const jsonFaultDetail = ({ error, position }: JsonFault): ValidationDetail => ({
  type: 'json_invalid',
  loc: ['body', position],
  msg: 'JSON decode error',
  input: {},
  ctx: { error },
});

/** FastAPI's answer to a body that is not JSON: Python's reason, at Python's character position. */
export const jsonInvalid = (text: string): ValidationDetail => jsonFaultDetail(pythonJsonFault(text));

/**
 * Deeper than this, a body is refused before it is parsed. Everything that later walks the value
 * recursively (valibot, the logger's merge, JSON.stringify of the 422 that echoes it) would overflow the
 * stack a few thousand levels down; 200 is the limit of pydantic's own JSON parser (jiter), and no
 * request of this API nests more than a handful of levels.
 */
export const MAX_JSON_DEPTH = 200;

/**
 * Where `text` opens a container deeper than `limit`, as an index into it, or -1. One pass that steps over
 * strings and their escapes, so brackets inside strings do not count; it keeps only a counter, so no
 * input can make it overflow (a parser that cannot overflow would still hand the deep value on).
 */
const depthExceededAt = (text: string, limit: number): number => {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return i;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return -1;
};

/** Python's position of UTF-16 index `index`: characters are code points there. */
const codePointsBefore = (text: string, index: number): number => {
  let surrogatePairs = 0;
  for (let i = 0; i < index - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        surrogatePairs++;
        i++;
      }
    }
  }
  return index - surrogatePairs;
};

/**
 * A request body as JSON, or the 422 FastAPI answers: `json_invalid` where Python's json stops, and past
 * MAX_JSON_DEPTH jiter's `recursion limit exceeded` at the bracket that went too deep (a syntax error
 * earlier in the text is reported first, as a streaming parser meets it first).
 */
export const parseJsonBody = (text: string): unknown => {
  const tooDeepAt = depthExceededAt(text, MAX_JSON_DEPTH);
  if (tooDeepAt < 0) {
    try {
      return JSON.parse(text);
    } catch {
      throw new RequestValidationError([jsonInvalid(text)]);
    }
  }
  const position = codePointsBefore(text, tooDeepAt);
  const before = pythonJsonFault(text.slice(0, tooDeepAt));
  const fault = before.position < position ? before : new JsonFault('recursion limit exceeded', position);
  throw new RequestValidationError([jsonFaultDetail(fault)]);
};
