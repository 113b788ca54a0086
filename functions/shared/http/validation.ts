/**
 * Read first: the 422 body is the FastAPI service's, word for word. Clients written for it switch on
 * each detail's `type` (and some show `msg`), so a valibot issue is answered in pydantic v2's terms:
 * its error type, its message template, its `ctx`, and `input` as pydantic reports it. The one table
 * below (`PYDANTIC_BY_VALIBOT`) holds that mapping; a rule of ours that pydantic has no type for is a
 * `value_error`, which is what a FastAPI validator raising ValueError produces.
 */
import * as v from 'valibot';

/** One entry of the 422 body: `{type, loc, msg, input, ctx}` as FastAPI serialises a pydantic error. */
export interface ValidationDetail {
  type: string;
  loc: Array<string | number>;
  msg: string;
  /** Every detail built here has it; optional only for details other modules still build by hand. */
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** A request that failed validation; answered with 422 `{detail: [...]}`. */
export class RequestValidationError extends Error {
  constructor(readonly detail: ValidationDetail[]) {
    super(detail.map((d) => `${d.loc.join('.')}: ${d.msg}`).join('; '));
    this.name = 'RequestValidationError';
  }
}

type Location = 'body' | 'query' | 'path';
type Issue = v.BaseIssue<unknown>;
type Pydantic = Pick<ValidationDetail, 'type' | 'msg' | 'ctx'>;

/** A whole number as FastAPI reads an `int` query parameter: spaces, a sign, `_` separators, `.0`. */
export const INTEGER_TEXT = /^\s*[+-]?\d+(?:_\d+)*(?:\.0+)?\s*$/;

/** A pattern that demands an http(s) scheme is pydantic's `HttpUrl` scheme check. */
const isHttpSchemeRule = (pattern: RegExp): boolean => pattern.source.startsWith('^https?:');

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** Python's repr of a literal: strings in single quotes (double when they hold one). */
const pythonRepr = (value: unknown): string => {
  if (typeof value !== 'string') return String(value);
  return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value.replaceAll("'", "\\'")}'`;
};

/** pydantic's list of choices: `'a'`, `'a' or 'b'`, `'a', 'b' or 'c'`. */
const orList = (reprs: string[]): string =>
  reprs.length < 2 ? reprs.join('') : `${reprs.slice(0, -1).join(', ')} or ${reprs.at(-1)}`;

/** The options back out of valibot's `expected` (`("png" | "jpg")`, `"png"` or `1`). */
const expectedOptions = (expected: string | null): unknown[] =>
  [...(expected ?? '').matchAll(/"([^"]*)"|(-?\d+(?:\.\d+)?)/g)].map(([, text, number]) =>
    text !== undefined ? text : Number(number),
  );

const literal = (issue: Issue): Pydantic => {
  const expected = orList(expectedOptions(issue.expected).map(pythonRepr));
  return { type: 'literal_error', msg: `Input should be ${expected}`, ctx: { expected } };
};

const valueError = (issue: Issue): Pydantic => ({
  type: 'value_error',
  msg: `Value error, ${issue.message}`,
  ctx: { error: {} },
});

const NOT_AN_OBJECT: Pydantic = {
  type: 'model_attributes_type',
  msg: 'Input should be a valid dictionary or object to extract fields from',
};

const INT_PARSING: Pydantic = {
  type: 'int_parsing',
  msg: 'Input should be a valid integer, unable to parse string as an integer',
};

/** Why the Rust `url` crate (pydantic's parser) refuses a string that `new URL` refused too. */
const urlParsingError = (text: string): string => {
  if (text === '') return 'input is empty';
  const authority = /^[a-z][a-z\d+.-]*:\/*([^/?#]*)/i.exec(text)?.[1];
  if (authority === undefined) return 'relative URL without a base';
  const [, host = '', port] = /^(\[[^\]]*\]?|[^:]*)(?::(.*))?$/.exec(authority.replace(/^.*@/, '')) ?? [];
  if (host === '') return 'empty host';
  if (port !== undefined && (!/^\d*$/.test(port) || Number(port) > 65_535)) return 'invalid port number';
  if (host.startsWith('[')) return 'invalid IPv6 address';
  if (/^[\d.]+$/.test(host)) return 'invalid IPv4 address';
  return 'invalid international domain name';
};

/**
 * Why pydantic refuses a string for a `datetime`: in lax mode it falls back to reading a date, so the
 * reason is speedate's for the date part (its checks, in its order, on the UTF-8 bytes).
 */
const dateParsingError = (text: string): string => {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length < 10) return 'input is too short';
  const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39;
  const digits = (...at: number[]) => at.every((i) => isDigit(bytes[i]));
  const number = (from: number, to: number) => Number(bytes.subarray(from, to).toString('latin1'));
  if (!digits(0, 1, 2, 3)) return 'invalid character in year';
  if (bytes[4] !== 0x2d) return 'invalid date separator, expected `-`';
  if (!digits(5, 6)) return 'invalid character in month';
  if (bytes[7] !== 0x2d) return 'invalid date separator, expected `-`';
  if (!digits(8, 9)) return 'invalid character in day';
  const [year, month, day] = [number(0, 4), number(5, 7), number(8, 10)];
  if (month < 1 || month > 12) return 'month value is outside expected range of 1-12';
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysInMonth = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  if (day < 1 || day > daysInMonth) return 'day value is outside expected range';
  return 'unexpected extra characters at the end of the input';
};

const tooLong = (max: number, input: unknown): Pydantic =>
  Array.isArray(input)
    ? {
        type: 'too_long',
        msg: `List should have at most ${plural(max, 'item')} after validation, not ${input.length}`,
        ctx: { field_type: 'List', max_length: max, actual_length: input.length },
      }
    : {
        type: 'string_too_long',
        msg: `String should have at most ${plural(max, 'character')}`,
        ctx: { max_length: max },
      };

/**
 * valibot issue type → pydantic v2 error (pydantic-core's ErrorType templates). Each row sees the issue
 * and the input pydantic would report (the field's value as sent, before any transform). Every number
 * field of the API is an integer, so `number` reads as pydantic's `int`.
 */
const PYDANTIC_BY_VALIBOT: Record<string, (issue: Issue, input: unknown) => Pydantic> = {
  // schema kinds: the value has the wrong type
  object: () => NOT_AN_OBJECT,
  string: () => ({ type: 'string_type', msg: 'Input should be a valid string' }),
  array: () => ({ type: 'list_type', msg: 'Input should be a valid list' }),
  number: (_, input) =>
    typeof input === 'string' ? INT_PARSING : { type: 'int_type', msg: 'Input should be a valid integer' },
  boolean: (_, input) =>
    typeof input === 'string' || Number.isInteger(input)
      ? { type: 'bool_parsing', msg: 'Input should be a valid boolean, unable to interpret input' }
      : { type: 'bool_type', msg: 'Input should be a valid boolean' },
  picklist: literal,
  literal,
  variant: literal,
  never: valueError,
  // validation kinds: the value has the right type and breaks a rule
  integer: (_, input) =>
    typeof input === 'string'
      ? INT_PARSING
      : { type: 'int_from_float', msg: 'Input should be a valid integer, got a number with a fractional part' },
  min_value: ({ requirement: ge }) => ({
    type: 'greater_than_equal',
    msg: `Input should be greater than or equal to ${ge}`,
    ctx: { ge },
  }),
  max_value: ({ requirement: le }) => ({
    type: 'less_than_equal',
    msg: `Input should be less than or equal to ${le}`,
    ctx: { le },
  }),
  min_length: ({ requirement }, input) => {
    const min = Number(requirement);
    return Array.isArray(input)
      ? {
          type: 'too_short',
          msg: `List should have at least ${plural(min, 'item')} after validation, not ${input.length}`,
          ctx: { field_type: 'List', min_length: min, actual_length: input.length },
        }
      : {
          type: 'string_too_short',
          msg: `String should have at least ${plural(min, 'character')}`,
          ctx: { min_length: min },
        };
  },
  max_length: ({ requirement }, input) => tooLong(Number(requirement), input),
  regex: ({ requirement }) => {
    const pattern = requirement as RegExp;
    if (pattern === INTEGER_TEXT) return INT_PARSING;
    if (isHttpSchemeRule(pattern))
      return {
        type: 'url_scheme',
        msg: "URL scheme should be 'http' or 'https'",
        ctx: { expected_schemes: "'http' or 'https'" },
      };
    return {
      type: 'string_pattern_mismatch',
      msg: `String should match pattern '${pattern.source}'`,
      ctx: { pattern: pattern.source },
    };
  },
  url: (_, input) => {
    const error = urlParsingError(String(input));
    return { type: 'url_parsing', msg: `Input should be a valid URL, ${error}`, ctx: { error } };
  },
  iso_timestamp: (_, input) => {
    const error = dateParsingError(String(input));
    return {
      type: 'datetime_from_date_parsing',
      msg: `Input should be a valid datetime or date, ${error}`,
      ctx: { error },
    };
  },
  check: valueError,
  raw_check: valueError,
};

const MISSING: Pydantic = { type: 'missing', msg: 'Field required' };

/** A required field absent: pydantic reports the object it was missing from; FastAPI null for a parameter. */
const isMissing = (issue: Issue): boolean => issue.kind === 'schema' && issue.input === undefined;

const detailOf = (location: Location, issue: Issue): ValidationDetail => {
  const path = issue.path ?? [];
  const loc: Array<string | number> = [
    location,
    ...path.map((item) => (typeof item.key === 'number' ? item.key : String(item.key))),
  ];
  const step = path.at(-1);
  if (isMissing(issue)) {
    const container = location === 'body' ? (step?.input ?? null) : null;
    // valibot reads an array as an object with every key missing; pydantic refuses the array itself.
    if (Array.isArray(container)) return { ...NOT_AN_OBJECT, loc: loc.slice(0, -1), input: container };
    return { ...MISSING, loc, input: container };
  }
  const input = step ? step.value : issue.input;
  const { type, msg, ctx } = (PYDANTIC_BY_VALIBOT[issue.type] ?? valueError)(issue, input);
  return { type, loc, msg, input, ...(ctx && { ctx }) };
};

/** Turns valibot issues into 422 details located under `location` (body, query or path). */
export const validationDetails = (location: Location, issues: readonly Issue[]): ValidationDetail[] => {
  // An array read as an object yields one detail per missing key, all alike once collapsed: keep one.
  const byPlace = new Map(
    issues
      .map((issue) => detailOf(location, issue))
      .map((detail) => [JSON.stringify([detail.type, detail.loc]), detail]),
  );
  return [...byPlace.values()];
};

/** A 422 detail for a rule checked outside the schemas, worded as a FastAPI validator's ValueError. */
export const valueErrorDetail = (loc: Array<string | number>, message: string, input: unknown): ValidationDetail => ({
  type: 'value_error',
  loc,
  msg: `Value error, ${message}`,
  input,
  ctx: { error: {} },
});

/** FastAPI's answer when the body is absent (or JSON `null`): the body itself is missing. */
export const missingBody = (): ValidationDetail => ({ ...MISSING, loc: ['body'], input: null });

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

type SchemaNode = {
  kind: string;
  type: string;
  entries?: Record<string, SchemaNode>;
  item?: SchemaNode;
  wrapped?: SchemaNode;
  pipe?: readonly SchemaNode[];
  requirement?: unknown;
};

/** The smallest `maxLength` an array schema's pipe (pipes nest) puts on it. */
const maxItemsOf = (schema: SchemaNode): number | undefined => {
  let max: number | undefined;
  for (const step of schema.pipe ?? []) {
    const limit =
      step === schema
        ? undefined
        : step.kind === 'schema'
          ? maxItemsOf(step)
          : step.type === 'max_length'
            ? Number(step.requirement)
            : undefined;
    if (limit !== undefined) max = Math.min(max ?? limit, limit);
  }
  return max;
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The lists longer than their schema's `maxLength`, found before validating anything else. pydantic stops
 * a list at max_length + 1 items and reports `too_long` alone; valibot would first validate every item,
 * and a 6 MB body of a million bad items is then a million issues and over a gigabyte. The walk follows
 * the schema (objects, arrays, optional and nullable wrappers; not unions), so it is as deep as the
 * schema is, whatever the input.
 */
const overLongLists = (location: Location, schema: v.GenericSchema, input: unknown): ValidationDetail[] => {
  const found: ValidationDetail[] = [];
  const visit = (node: SchemaNode, value: unknown, loc: Array<string | number>): void => {
    if (node.wrapped) {
      visit(node.wrapped, value, loc);
    } else if (node.type === 'object' && node.entries && isRecord(value)) {
      for (const [key, entry] of Object.entries(node.entries))
        if (Object.hasOwn(value, key)) visit(entry, value[key], [...loc, key]);
    } else if (node.type === 'array' && node.item && Array.isArray(value)) {
      const max = maxItemsOf(node);
      if (max !== undefined && value.length > max) {
        const { type, msg, ctx } = tooLong(max, value);
        found.push({ type, loc, msg, input: value, ...(ctx && { ctx }) });
        return;
      }
      for (const [index, element] of value.entries()) visit(node.item, element, [...loc, index]);
    }
  };
  visit(schema as unknown as SchemaNode, input, [location]);
  return found;
};

/** An echoed `input` longer than this as JSON is cut to its first ECHO_PREVIEW_CHARS characters. */
const MAX_ECHO_CHARS = 16_384;
const ECHO_PREVIEW_CHARS = 1_000;
/** The details of one 422 stop once they add up to this much JSON (Lambda answers at most 6 MB). */
const MAX_DETAILS_CHARS = 1_048_576;

/** A prefix that does not end in half a surrogate pair, and an ellipsis. */
const preview = (text: string): string => {
  const cut = text.slice(0, ECHO_PREVIEW_CHARS);
  const last = cut.charCodeAt(cut.length - 1);
  return `${last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut}…`;
};

const boundedEcho = (input: unknown): unknown => {
  if (typeof input === 'string') return input.length > MAX_ECHO_CHARS ? preview(input) : input;
  if (typeof input !== 'object' || input === null) return input;
  const json = JSON.stringify(input);
  return json.length > MAX_ECHO_CHARS ? preview(json) : input;
};

/**
 * The details a 422 answers: pydantic echoes each failing value whole, so a 6 MB body missing a field
 * would come back once per missing field, and a list of a million bad items a million times. A long
 * echo is cut (to a string of its first characters, its JSON for a list or an object), and the list
 * stops once it reaches MAX_DETAILS_CHARS (the first detail always stays).
 */
export const answerableDetails = (details: readonly ValidationDetail[]): ValidationDetail[] => {
  const answered: ValidationDetail[] = [];
  // As JSON: the opening bracket, then each detail with the comma or the bracket after it.
  let chars = 1;
  for (const detail of details) {
    const bounded = 'input' in detail ? { ...detail, input: boundedEcho(detail.input) } : detail;
    chars += JSON.stringify(bounded).length + 1;
    if (chars > MAX_DETAILS_CHARS && answered.length > 0) break;
    answered.push(bounded);
  }
  return answered;
};

export const parseOrThrow = <S extends v.GenericSchema>(
  location: Location,
  schema: S,
  input: unknown,
): v.InferOutput<S> => {
  const overLong = overLongLists(location, schema, input);
  if (overLong.length > 0) throw new RequestValidationError(overLong);
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (!result.success) throw new RequestValidationError(validationDetails(location, result.issues));
  return result.output;
};
