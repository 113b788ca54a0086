/**
 * The bounds of a 422: over-long lists refused before valibot walks them, long echoes cut, and the
 * list of details stopped before the answer outgrows a Lambda response; `parseOrThrow` applies them.
 */
import * as v from 'valibot';
import {
  type Location,
  RequestValidationError,
  tooLong,
  type ValidationDetail,
  validationDetails,
} from './pydantic-errors';

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
