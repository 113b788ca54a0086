/**
 * Read first: the 422 body is the FastAPI service's, word for word. Clients written for it switch on
 * each detail's `type` (and some show `msg`), so a valibot issue is answered in pydantic v2's terms:
 * its error type, its message template, its `ctx`, and `input` as pydantic reports it. The one table
 * below (`PYDANTIC_BY_VALIBOT`) holds that mapping; a rule of ours that pydantic has no type for is a
 * `value_error`, which is what a FastAPI validator raising ValueError produces.
 */
import type * as v from 'valibot';

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

export type Location = 'body' | 'query' | 'path';
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

export const tooLong = (max: number, input: unknown): Pydantic =>
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
