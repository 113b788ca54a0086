/**
 * The 422 details in pydantic v2's words, through the real request schemas: each test sends a request
 * that is valid except for one aspect and checks the whole detail FastAPI would answer.
 */
import type * as v from 'valibot';
import {
  EditRequestSchema,
  EnhanceRequestSchema,
  GenerateRequestSchema,
} from '../../../../../functions/api/schemas/images';
import { ListJobsQuerySchema } from '../../../../../functions/api/schemas/jobs';
import { AddProfileRequestSchema, TagProfilesRequestSchema } from '../../../../../functions/api/schemas/profiles';
import { PINNED_MODEL } from '../../../../../functions/domain/catalog/catalog';
import {
  answerableDetails,
  jsonInvalid,
  MAX_JSON_DEPTH,
  missingBody,
  parseJsonBody,
  parseOrThrow,
  RequestValidationError,
  type ValidationDetail,
} from '../../../../../functions/entry/http/validation';

const detailsOf = (location: 'body' | 'query', schema: v.GenericSchema, input: unknown): ValidationDetail[] => {
  try {
    parseOrThrow(location, schema, input);
  } catch (error) {
    if (error instanceof RequestValidationError) return error.detail;
    throw error;
  }
  throw new Error('the request was accepted');
};
const bodyDetails = (schema: v.GenericSchema, body: unknown) => detailsOf('body', schema, body);
const queryDetails = (query: Record<string, string>) => detailsOf('query', ListJobsQuerySchema, query);

const edit = { images: ['https://example.com/a.jpg'], prompt: 'make it blue' };
const generate = { prompt: 'a red bicycle' };
const photos = (count: number) => Array.from({ length: count }, (_, i) => `https://example.com/${i}.jpg`);
const profile = { image_urls: photos(10) };

describe('a schema refusal in pydantic v2 terms', () => {
  it('missing: a required field absent, with the object it was missing from', () => {
    const body = { prompt: 'x' };
    expect(bodyDetails(EditRequestSchema, body)).toEqual([
      { type: 'missing', loc: ['body', 'images'], msg: 'Field required', input: body },
    ]);
  });

  it('missing: the body absent or null, with input null', () => {
    expect(missingBody()).toEqual({ type: 'missing', loc: ['body'], msg: 'Field required', input: null });
  });

  it('literal_error: a value outside the choices, joined as pydantic joins them', () => {
    expect(bodyDetails(GenerateRequestSchema, { ...generate, output_format: 'gif' })).toEqual([
      {
        type: 'literal_error',
        loc: ['body', 'output_format'],
        msg: "Input should be 'png' or 'jpg'",
        input: 'gif',
        ctx: { expected: "'png' or 'jpg'" },
      },
    ]);
    expect(queryDetails({ status: 'done' })).toEqual([
      {
        type: 'literal_error',
        loc: ['query', 'status'],
        msg: "Input should be 'pending', 'running', 'succeeded' or 'failed'",
        input: 'done',
        ctx: { expected: "'pending', 'running', 'succeeded' or 'failed'" },
      },
    ]);
  });

  const long = 'x'.repeat(129);
  const eleven = photos(11);
  const pattern = '^[1-9][0-9]{0,3}x[1-9][0-9]{0,3}$';
  /** Each case: the schema, a body valid but for one aspect, and the one detail pydantic answers for it. */
  const cases: Array<[string, v.GenericSchema, unknown, ValidationDetail]> = [
    [
      'int_type: an integer field given neither a number nor a string',
      EditRequestSchema,
      { ...edit, num_output_images: [2] },
      { type: 'int_type', loc: ['body', 'num_output_images'], msg: 'Input should be a valid integer', input: [2] },
    ],
    [
      'int_parsing: an integer field given a string that is not a number',
      EditRequestSchema,
      { ...edit, num_output_images: 'two' },
      {
        type: 'int_parsing',
        loc: ['body', 'num_output_images'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: 'two',
      },
    ],
    [
      'int_from_float: an integer field given a fraction',
      EditRequestSchema,
      { ...edit, num_output_images: 2.5 },
      {
        type: 'int_from_float',
        loc: ['body', 'num_output_images'],
        msg: 'Input should be a valid integer, got a number with a fractional part',
        input: 2.5,
      },
    ],
    [
      'bool_type: a boolean field given null',
      EditRequestSchema,
      { ...edit, async: null },
      { type: 'bool_type', loc: ['body', 'async'], msg: 'Input should be a valid boolean', input: null },
    ],
    [
      'bool_parsing: a boolean field given a word that is not one',
      EditRequestSchema,
      { ...edit, async: 'maybe' },
      {
        type: 'bool_parsing',
        loc: ['body', 'async'],
        msg: 'Input should be a valid boolean, unable to interpret input',
        input: 'maybe',
      },
    ],
    [
      'string_type: a string field given a number',
      GenerateRequestSchema,
      { prompt: 5 },
      { type: 'string_type', loc: ['body', 'prompt'], msg: 'Input should be a valid string', input: 5 },
    ],
    [
      'list_type: a list field given a string',
      EditRequestSchema,
      { ...edit, images: 'https://example.com/a.jpg' },
      {
        type: 'list_type',
        loc: ['body', 'images'],
        msg: 'Input should be a valid list',
        input: 'https://example.com/a.jpg',
      },
    ],
    [
      'string_too_short: one character, singular',
      EditRequestSchema,
      { ...edit, client_request_id: '' },
      {
        type: 'string_too_short',
        loc: ['body', 'client_request_id'],
        msg: 'String should have at least 1 character',
        input: '',
        ctx: { min_length: 1 },
      },
    ],
    [
      'string_too_long: 128 characters, plural',
      EditRequestSchema,
      { ...edit, client_request_id: long },
      {
        type: 'string_too_long',
        loc: ['body', 'client_request_id'],
        msg: 'String should have at most 128 characters',
        input: long,
        ctx: { max_length: 128 },
      },
    ],
    [
      'too_long: a list with too many items, with its length',
      EditRequestSchema,
      { ...edit, images: eleven },
      {
        type: 'too_long',
        loc: ['body', 'images'],
        msg: 'List should have at most 10 items after validation, not 11',
        input: eleven,
        ctx: { field_type: 'List', max_length: 10, actual_length: 11 },
      },
    ],
    [
      'string_pattern_mismatch: the pattern as written in the schema',
      GenerateRequestSchema,
      { ...generate, size: 'big' },
      {
        type: 'string_pattern_mismatch',
        loc: ['body', 'size'],
        msg: `String should match pattern '${pattern}'`,
        input: 'big',
        ctx: { pattern },
      },
    ],
    [
      'url_parsing: a URL field given something that is not a URL, with the parser reason',
      AddProfileRequestSchema,
      { image_urls: [...photos(9), 'photo.jpg'] },
      {
        type: 'url_parsing',
        loc: ['body', 'image_urls', 9],
        msg: 'Input should be a valid URL, relative URL without a base',
        input: 'photo.jpg',
        ctx: { error: 'relative URL without a base' },
      },
    ],
    [
      'url_scheme: a URL field given a URL that is not http(s)',
      AddProfileRequestSchema,
      { image_urls: [...photos(9), 'ftp://example.com/a.jpg'] },
      {
        type: 'url_scheme',
        loc: ['body', 'image_urls', 9],
        msg: "URL scheme should be 'http' or 'https'",
        input: 'ftp://example.com/a.jpg',
        ctx: { expected_schemes: "'http' or 'https'" },
      },
    ],
  ];

  it.each(cases)('%s', (_case, schema, body, detail) => {
    expect(bodyDetails(schema, body)).toEqual([detail]);
  });

  it('greater_than_equal and less_than_equal: a number out of range', () => {
    expect(bodyDetails(EditRequestSchema, { ...edit, num_output_images: 0 })).toEqual([
      {
        type: 'greater_than_equal',
        loc: ['body', 'num_output_images'],
        msg: 'Input should be greater than or equal to 1',
        input: 0,
        ctx: { ge: 1 },
      },
    ]);
    expect(bodyDetails(EditRequestSchema, { ...edit, num_output_images: 9 })).toEqual([
      {
        type: 'less_than_equal',
        loc: ['body', 'num_output_images'],
        msg: 'Input should be less than or equal to 4',
        input: 9,
        ctx: { le: 4 },
      },
    ]);
  });

  it('too_short: a list with too few items, with its length', () => {
    expect(bodyDetails(EditRequestSchema, { ...edit, images: [] })).toEqual([
      {
        type: 'too_short',
        loc: ['body', 'images'],
        msg: 'List should have at least 1 item after validation, not 0',
        input: [],
        ctx: { field_type: 'List', min_length: 1, actual_length: 0 },
      },
    ]);
    const few = photos(4);
    expect(bodyDetails(AddProfileRequestSchema, { image_urls: few })).toEqual([
      {
        type: 'too_short',
        loc: ['body', 'image_urls'],
        msg: 'List should have at least 5 items after validation, not 4',
        input: few,
        ctx: { field_type: 'List', min_length: 5, actual_length: 4 },
      },
    ]);
  });

  it('model_attributes_type: a body that is JSON but not an object', () => {
    expect(bodyDetails(EditRequestSchema, 'images')).toEqual([
      {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: 'images',
      },
    ]);
    expect(bodyDetails(EditRequestSchema, [edit])).toEqual([
      {
        type: 'model_attributes_type',
        loc: ['body'],
        msg: 'Input should be a valid dictionary or object to extract fields from',
        input: [edit],
      },
    ]);
  });

  it('datetime_from_date_parsing: a date-time query with the date reason', () => {
    expect(queryDetails({ created_after: '2026-13-01T00:00:00Z' })).toEqual([
      {
        type: 'datetime_from_date_parsing',
        loc: ['query', 'created_after'],
        msg: 'Input should be a valid datetime or date, month value is outside expected range of 1-12',
        input: '2026-13-01T00:00:00Z',
        ctx: { error: 'month value is outside expected range of 1-12' },
      },
    ]);
  });
});

describe('the limit query parameter, read as FastAPI reads an int', () => {
  it('int_parsing for a word', () => {
    expect(queryDetails({ limit: 'ten' })).toEqual([
      {
        type: 'int_parsing',
        loc: ['query', 'limit'],
        msg: 'Input should be a valid integer, unable to parse string as an integer',
        input: 'ten',
      },
    ]);
  });

  it('greater_than_equal and less_than_equal with the text as sent', () => {
    expect(queryDetails({ limit: '0' })).toEqual([
      {
        type: 'greater_than_equal',
        loc: ['query', 'limit'],
        msg: 'Input should be greater than or equal to 1',
        input: '0',
        ctx: { ge: 1 },
      },
    ]);
    expect(queryDetails({ limit: '1000' })).toEqual([
      {
        type: 'less_than_equal',
        loc: ['query', 'limit'],
        msg: 'Input should be less than or equal to 100',
        input: '1000',
        ctx: { le: 100 },
      },
    ]);
  });

  it('takes what Python int parsing takes', () => {
    expect(
      ['7', ' 7 ', '+7', '007', '7.00', '1_0'].map(
        (limit) => parseOrThrow('query', ListJobsQuerySchema, { limit }).limit,
      ),
    ).toEqual([7, 7, 7, 7, 7, 10]);
  });
});

describe('our own rules as a ValueError', () => {
  const valueError = (loc: ValidationDetail['loc'], message: string, input: unknown): ValidationDetail => ({
    type: 'value_error',
    loc,
    msg: `Value error, ${message}`,
    input,
    ctx: { error: {} },
  });

  it('a cross-field rule (raw check), at the field with its value', () => {
    expect(bodyDetails(EditRequestSchema, { ...edit, async: true, response_mode: 'bytes' })).toEqual([
      valueError(
        ['body', 'response_mode'],
        'response_mode bytes cannot be combined with async: true; async results are delivered as urls.',
        'bytes',
      ),
    ]);
  });

  it('a pinned field (never)', () => {
    expect(bodyDetails(EnhanceRequestSchema, { image: 'aGVsbG8=', base_model: 'other' })).toEqual([
      valueError(
        ['body', 'base_model'],
        `enhance does not accept base_model: it is pinned to ${PINNED_MODEL.baseModel} at ${PINNED_MODEL.resolution}.`,
        'other',
      ),
    ]);
  });

  it('a forwarded check', () => {
    const image_urls = photos(12);
    expect(bodyDetails(AddProfileRequestSchema, { ...profile, image_urls, training_tier: 'fast' })).toEqual([
      valueError(
        ['body', 'image_urls'],
        'The photo count is outside the tier range: standard takes 10 to 50 photos, fast 5 to 10.',
        image_urls,
      ),
    ]);
  });

  it('a custom check on a string', () => {
    expect(bodyDetails(EditRequestSchema, { ...edit, async: true, callback_url: 'http://example.com/hook' })).toEqual([
      valueError(['body', 'callback_url'], 'callback_url must be an absolute https URL.', 'http://example.com/hook'),
    ]);
  });

  it('a rule over a list, located at the offending entry', () => {
    const tags = [
      { profile_id: 'prf_a', tag: 'x' },
      { profile_id: 'prf_a', tag: 'y' },
    ];
    expect(bodyDetails(TagProfilesRequestSchema, { tags })).toEqual([
      valueError(
        ['body', 'tags', 1, 'profile_id'],
        'Profile prf_a appears more than once; each profile may be tagged once per request.',
        'prf_a',
      ),
    ]);
  });
});

describe('json_invalid in Python json words and character positions', () => {
  it.each([
    ['{"prompt": ', 'Expecting value', 11],
    ['{"prompt": "x",}', 'Illegal trailing comma before end of object', 14],
    ['{prompt: "x"}', 'Expecting property name enclosed in double quotes', 1],
    ['{"prompt" "x"}', "Expecting ':' delimiter", 10],
    ['{"prompt": "x" "y"}', "Expecting ',' delimiter", 15],
    ['{"images": [1 2]}', "Expecting ',' delimiter", 14],
    ['{"images": [1,]}', 'Illegal trailing comma before end of array', 13],
    ['{"prompt": "x"} x', 'Extra data', 16],
    ['{"prompt": "ab', 'Unterminated string starting at', 11],
    ['{"prompt": "a\tb"}', 'Invalid control character at', 13],
    ['{"prompt": "a\\qb"}', 'Invalid \\escape', 13],
    ['{"prompt": "a\\u12G4"}', 'Invalid \\uXXXX escape', 14],
    ['{"prompt": "é😀", x}', 'Expecting property name enclosed in double quotes', 17],
    ['{"n": NaN}', 'Expecting value', 6],
    ['  ', 'Expecting value', 2],
    ['{"a": [{"b": [1, {"c": 2}]}], "d": {"e": [] "f"}}', "Expecting ',' delimiter", 44],
    ['['.repeat(5000), 'Expecting value', 5000],
  ])('%j: %s at %d', (text, error, position) => {
    expect(jsonInvalid(text)).toEqual({
      type: 'json_invalid',
      loc: ['body', position],
      msg: 'JSON decode error',
      input: {},
      ctx: { error },
    });
  });
});

describe('a body nested too deep, as jiter refuses it', () => {
  const refusal = (text: string): ValidationDetail[] => {
    try {
      parseJsonBody(text);
    } catch (error) {
      if (error instanceof RequestValidationError) return error.detail;
      throw error;
    }
    throw new Error('the body was parsed');
  };
  const tooDeep = (position: number) => [
    {
      type: 'json_invalid',
      loc: ['body', position],
      msg: 'JSON decode error',
      input: {},
      ctx: { error: 'recursion limit exceeded' },
    },
  ];
  const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

  it(`parses ${MAX_JSON_DEPTH} levels`, () => {
    expect(() => parseJsonBody(nested(MAX_JSON_DEPTH))).not.toThrow();
  });

  it.each([MAX_JSON_DEPTH + 1, 10_000, 1_000_000])('refuses %d levels at the bracket one level too deep', (depth) => {
    expect(refusal(nested(depth))).toEqual(tooDeep(MAX_JSON_DEPTH));
    expect(refusal(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)).toEqual(tooDeep(5 * MAX_JSON_DEPTH));
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ prompt: `${'[{'.repeat(5000)}\\"${'['.repeat(5000)}` });
    expect(parseJsonBody(text)).toEqual(JSON.parse(text));
  });

  it('counts its position in characters as Python does', () => {
    expect(refusal(`["😀", ${nested(MAX_JSON_DEPTH)}]`)).toEqual(tooDeep(6 + MAX_JSON_DEPTH - 1));
  });

  it('reports a syntax error before the depth first', () => {
    expect(refusal(`{"a" ${nested(10_000)}}`)).toEqual([jsonInvalid('{"a" [')]);
  });
});

describe('a list longer than its maxLength', () => {
  it('is reported too_long alone, its items unvalidated, as pydantic stops at max_length + 1', () => {
    const tags = Array.from({ length: 1_000_000 }, () => 1);
    expect(bodyDetails(TagProfilesRequestSchema, { tags })).toEqual([
      {
        type: 'too_long',
        loc: ['body', 'tags'],
        msg: 'List should have at most 1000 items after validation, not 1000000',
        input: tags,
        ctx: { field_type: 'List', max_length: 1000, actual_length: 1_000_000 },
      },
    ]);
  });

  it('is found inside an optional field', () => {
    const profileIds = Array.from({ length: 500 }, (_, i) => `prf_${i}`);
    expect(bodyDetails(EditRequestSchema, { ...edit, profile_ids: profileIds })).toEqual([
      expect.objectContaining({ type: 'too_long', loc: ['body', 'profile_ids'] }),
    ]);
  });
});

describe('the details a 422 answers', () => {
  const detail = (input: unknown): ValidationDetail => ({
    type: 'missing',
    loc: ['body', 'x'],
    msg: 'Field required',
    input,
  });

  it('echo a small input as sent', () => {
    const small = [detail({ prompt: 'x'.repeat(1000) }), detail('y'.repeat(16_384))];
    expect(answerableDetails(small)).toEqual(small);
  });

  it('cut a long string to its first 1000 characters', () => {
    expect(answerableDetails([detail('y'.repeat(5_000_000))])).toEqual([detail(`${'y'.repeat(1000)}…`)]);
  });

  it('cut a large list or object to the first 1000 characters of its JSON', () => {
    const wide = Array.from({ length: 1_000_000 }, () => 1);
    expect(answerableDetails([detail(wide)])).toEqual([detail(`${JSON.stringify(wide).slice(0, 1000)}…`)]);
  });

  it('do not cut a surrogate pair in half', () => {
    expect(answerableDetails([detail(`${'y'.repeat(999)}${'😀'.repeat(10_000)}`)])).toEqual([
      detail(`${'y'.repeat(999)}…`),
    ]);
  });

  it('stop at about a megabyte of JSON', () => {
    const many = Array.from({ length: 100_000 }, (_, i) => ({ ...detail('z'.repeat(100)), loc: ['body', i] }));
    const answered = answerableDetails(many);
    expect(answered).toEqual(many.slice(0, answered.length));
    expect(JSON.stringify(answered).length).toBeLessThanOrEqual(1_048_576);
    expect(JSON.stringify(answered).length).toBeGreaterThan(1_000_000);
  });
});
