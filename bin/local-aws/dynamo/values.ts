/**
 * DynamoDB attribute values as the JSON protocol carries them ({S}, {N}, {B} base64, {BOOL}, {NULL},
 * {M}, {L}, {SS}, {NS}, {BS}): validation, comparison, exact decimal arithmetic, sizes and document paths.
 */
import { DynamoError } from './errors';

export type Value = Record<string, unknown>;
export type Item = Record<string, Value>;
/** One step of a document path: an attribute or map key, or a list index. */
export type PathStep = string | number;

const TYPES = ['S', 'N', 'B', 'BOOL', 'NULL', 'M', 'L', 'SS', 'NS', 'BS'] as const;
type TypeName = (typeof TYPES)[number];

export const typeOf = (value: Value): TypeName => Object.keys(value)[0] as TypeName;

const invalid = (message: string) => new DynamoError('ValidationException', message);

// ---- numbers: exact decimals (DynamoDB keeps 38 significant digits; a JS number would round) ----

interface Decimal {
  mantissa: bigint;
  exponent: number;
}

const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

const parseDecimal = (text: string): Decimal => {
  if (!NUMBER.test(text)) throw invalid('A value provided cannot be converted into a number');
  const [significand, exponentText] = text.split(/[eE]/) as [string, string | undefined];
  const [whole, fraction = ''] = significand.replace(/^[-+]/, '').split('.') as [string, string | undefined];
  const digits = `${whole}${fraction}`.replace(/^0+(?=\d)/, '') || '0';
  const negative = significand.startsWith('-');
  const mantissa = BigInt(digits) * (negative ? -1n : 1n);
  return trim({ mantissa, exponent: Number(exponentText ?? 0) - fraction.length });
};

const trim = ({ mantissa, exponent }: Decimal): Decimal => {
  if (mantissa === 0n) return { mantissa, exponent: 0 };
  while (mantissa % 10n === 0n) {
    mantissa /= 10n;
    exponent += 1;
  }
  return { mantissa, exponent };
};

const align = (a: Decimal, b: Decimal): [bigint, bigint, number] => {
  const exponent = Math.min(a.exponent, b.exponent);
  return [
    a.mantissa * 10n ** BigInt(a.exponent - exponent),
    b.mantissa * 10n ** BigInt(b.exponent - exponent),
    exponent,
  ];
};

const formatDecimal = (value: Decimal): string => {
  const { mantissa, exponent } = trim(value);
  const negative = mantissa < 0n;
  const digits = (negative ? -mantissa : mantissa).toString();
  let text: string;
  if (exponent >= 0) text = digits + '0'.repeat(exponent);
  else {
    const padded = digits.padStart(-exponent + 1, '0');
    text = `${padded.slice(0, exponent)}.${padded.slice(exponent)}`;
  }
  return negative ? `-${text}` : text;
};

/** An integer already in canonical form, which most numbers are (micro-USD, counts, epoch ms). */
const CANONICAL_INTEGER = /^-?(0|[1-9]\d{0,14})$/;

/** The canonical form DynamoDB stores and answers ("1.50" → "1.5", "1e2" → "100"). */
const normalizeNumber = (text: string): string => {
  if (CANONICAL_INTEGER.test(text) && text !== '-0') return text;
  const decimal = parseDecimal(text);
  if (decimal.mantissa.toString().replace('-', '').length > 38)
    throw invalid('Attempting to store more than 38 significant digits in a Number');
  return formatDecimal(decimal);
};

export const addNumbers = (a: string, b: string, subtract = false): string => {
  const [x, y, exponent] = align(parseDecimal(a), parseDecimal(b));
  return formatDecimal({ mantissa: subtract ? x - y : x + y, exponent });
};

const compareNumbers = (a: string, b: string): number => {
  // Integers of up to 15 digits are exact as doubles.
  if (CANONICAL_INTEGER.test(a) && CANONICAL_INTEGER.test(b)) return Math.sign(Number(a) - Number(b));
  const [x, y] = align(parseDecimal(a), parseDecimal(b));
  return x < y ? -1 : x > y ? 1 : 0;
};

// ---- validation of what a request carries ----

/** Checks one attribute value and answers it in canonical form (numbers normalised). */
export const checkValue = (value: unknown): Value => {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw invalid('Supplied AttributeValue is empty, must contain exactly one of the supported datatypes');
  const entries = Object.entries(value as Record<string, unknown>).filter(
    ([, inner]) => inner !== undefined && inner !== null,
  );
  if (entries.length !== 1)
    throw invalid('Supplied AttributeValue is empty, must contain exactly one of the supported datatypes');
  const [type, inner] = entries[0];
  switch (type) {
    case 'S':
      if (typeof inner !== 'string') throw invalid('The parameter S must be a string');
      return { S: inner };
    case 'N':
      return { N: normalizeNumber(String(inner)) };
    case 'B':
      return { B: String(inner) };
    case 'BOOL':
      return { BOOL: Boolean(inner) };
    case 'NULL':
      if (inner !== true)
        throw invalid(
          'One or more parameter values were invalid: Null attribute value types must have the value of true',
        );
      return { NULL: true };
    case 'M':
      return { M: checkItem(inner as Record<string, unknown>) };
    case 'L':
      if (!Array.isArray(inner)) throw invalid('The parameter L must be a list');
      return { L: inner.map(checkValue) };
    case 'SS':
    case 'NS':
    case 'BS': {
      if (!Array.isArray(inner) || inner.length === 0)
        throw invalid(
          'One or more parameter values were invalid: An number set  may not be empty'.replace(
            'number',
            type === 'SS' ? 'string' : type === 'NS' ? 'number' : 'binary',
          ),
        );
      const members = inner.map((member) => (type === 'NS' ? normalizeNumber(String(member)) : String(member)));
      if (new Set(members).size !== members.length)
        throw invalid(
          `One or more parameter values were invalid: Input collection [${members.join(', ')}] contains duplicates.`,
        );
      return { [type]: members };
    }
    default:
      throw invalid(`Supplied AttributeValue has an unknown type: ${type}`);
  }
};

export const checkItem = (item: unknown): Item => {
  if (!item || typeof item !== 'object') throw invalid('The provided item is not a map of attribute values');
  return Object.fromEntries(
    Object.entries(item as Record<string, unknown>).map(([name, value]) => [name, checkValue(value)]),
  );
};

// ---- comparison ----

const bytesOf = (value: Value): Buffer => Buffer.from(String(value.B), 'base64');

export const valuesEqual = (a: Value | undefined, b: Value | undefined): boolean => {
  if (!a || !b) return false;
  const type = typeOf(a);
  if (type !== typeOf(b)) return false;
  switch (type) {
    case 'N':
      return compareNumbers(a.N as string, b.N as string) === 0;
    case 'B':
      return bytesOf(a).equals(bytesOf(b));
    case 'M': {
      const [x, y] = [a.M as Item, b.M as Item];
      const names = Object.keys(x);
      return names.length === Object.keys(y).length && names.every((name) => valuesEqual(x[name], y[name]));
    }
    case 'L': {
      const [x, y] = [a.L as Value[], b.L as Value[]];
      return x.length === y.length && x.every((member, index) => valuesEqual(member, y[index]));
    }
    case 'SS':
    case 'NS':
    case 'BS': {
      const [x, y] = [a[type] as string[], b[type] as string[]];
      return x.length === y.length && x.every((member) => setHas(type, y, member));
    }
    default:
      return a[type] === b[type];
  }
};

const setHas = (type: 'SS' | 'NS' | 'BS', members: string[], member: string): boolean =>
  type === 'NS' ? members.some((candidate) => compareNumbers(candidate, member) === 0) : members.includes(member);

/**
 * Strings by their UTF-8 bytes, as DynamoDB orders them. UTF-16 order (JavaScript's) is the same unless a
 * string holds a surrogate pair or a character from U+E000: only then are the bytes compared.
 */
const BEYOND_SURROGATES = /[\uD800-\uFFFF]/;
const compareStrings = (a: string, b: string): number => {
  if (!BEYOND_SURROGATES.test(a) && !BEYOND_SURROGATES.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
};

/** Ordering of two scalars of one type (S by UTF-8 bytes, N numerically, B by bytes); undefined when they are not comparable. */
export const compareScalars = (a: Value | undefined, b: Value | undefined): number | undefined => {
  if (!a || !b) return undefined;
  const type = typeOf(a);
  if (type !== typeOf(b)) return undefined;
  if (type === 'N') return compareNumbers(a.N as string, b.N as string);
  if (type === 'S') return compareStrings(a.S as string, b.S as string);
  if (type === 'B') return Buffer.compare(bytesOf(a), bytesOf(b));
  return undefined;
};

/** Set union or difference on two sets of one type. */
export const combineSets = (current: Value, change: Value, remove: boolean): Value | undefined => {
  const type = typeOf(current) as 'SS' | 'NS' | 'BS';
  const members = current[type] as string[];
  const changes = change[type] as string[];
  const result = remove
    ? members.filter((member) => !setHas(type, changes, member))
    : [...members, ...changes.filter((member) => !setHas(type, members, member))];
  return result.length === 0 ? undefined : { [type]: result };
};

export const isSet = (value: Value | undefined): boolean =>
  value !== undefined && ['SS', 'NS', 'BS'].includes(typeOf(value));

// ---- sizes (DynamoDB's item size rules, for the 400 KB item limit and the 1 MB page) ----

const valueSize = (value: Value): number => {
  const type = typeOf(value);
  switch (type) {
    case 'S':
      return Buffer.byteLength(value.S as string);
    case 'N':
      return Math.ceil((value.N as string).replace(/[-.]/g, '').replace(/^0+/, '').length / 2) + 1;
    case 'B':
      return bytesOf(value).length;
    case 'BOOL':
    case 'NULL':
      return 1;
    case 'M':
      return (
        3 +
        Object.entries(value.M as Item).reduce(
          (sum, [name, inner]) => sum + Buffer.byteLength(name) + valueSize(inner) + 1,
          0,
        )
      );
    case 'L':
      return 3 + (value.L as Value[]).reduce((sum, inner) => sum + valueSize(inner) + 1, 0);
    case 'SS':
      return (value.SS as string[]).reduce((sum, member) => sum + Buffer.byteLength(member), 0);
    case 'NS':
      return (value.NS as string[]).reduce((sum, member) => sum + valueSize({ N: member }), 0);
    case 'BS':
      return (value.BS as string[]).reduce((sum, member) => sum + Buffer.from(member, 'base64').length, 0);
  }
};

export const itemSize = (item: Item): number =>
  Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueSize(value), 0);

export const MAX_ITEM_BYTES = 400 * 1024;

// ---- document paths ----

export const pathText = (path: PathStep[]): string =>
  path.map((step, index) => (typeof step === 'number' ? `[${step}]` : index === 0 ? step : `.${step}`)).join('');

export const getPath = (item: Item, path: PathStep[]): Value | undefined => {
  let current: Value | undefined = item[path[0] as string];
  for (const step of path.slice(1)) {
    if (!current) return undefined;
    if (typeof step === 'number') current = typeOf(current) === 'L' ? (current.L as Value[])[step] : undefined;
    else current = typeOf(current) === 'M' ? (current.M as Item)[step] : undefined;
  }
  return current;
};

const invalidPath = () => invalid('The document path provided in the update expression is invalid for update');

/** The container that holds the path's last step (the item itself for a top-level attribute). */
const parentOf = (item: Item, path: PathStep[]): Item | Value[] | undefined => {
  if (path.length === 1) return item;
  const parent = getPath(item, path.slice(0, -1));
  if (!parent) return undefined;
  const last = path[path.length - 1];
  if (typeof last === 'number') return typeOf(parent) === 'L' ? (parent.L as Value[]) : undefined;
  return typeOf(parent) === 'M' ? (parent.M as Item) : undefined;
};

export const setPath = (item: Item, path: PathStep[], value: Value): void => {
  const parent = parentOf(item, path);
  if (!parent) throw invalidPath();
  const last = path[path.length - 1];
  if (Array.isArray(parent)) {
    if (typeof last !== 'number') throw invalidPath();
    if (last >= parent.length) parent.push(value);
    else parent[last] = value;
  } else {
    if (typeof last === 'number') throw invalidPath();
    parent[last] = value;
  }
};

export const removePath = (item: Item, path: PathStep[]): void => {
  const parent = parentOf(item, path);
  if (!parent) return;
  const last = path[path.length - 1];
  if (Array.isArray(parent)) {
    if (typeof last === 'number' && last < parent.length) parent.splice(last, 1);
  } else if (typeof last === 'string') delete parent[last];
};

/** A copy holding only the given paths (ProjectionExpression); list elements are kept in order. */
export const project = (item: Item, paths: PathStep[][]): Item => {
  const result: Item = {};
  for (const path of paths) {
    const value = getPath(item, path);
    if (!value) continue;
    let target: Item | Value[] = result;
    for (let index = 0; index < path.length - 1; index += 1) {
      const step = path[index];
      const nextIsIndex = typeof path[index + 1] === 'number';
      const container: Record<string | number, Value> = target as unknown as Record<string | number, Value>;
      const key = Array.isArray(target) && typeof step === 'number' ? Math.min(step, target.length) : step;
      container[key] ??= nextIsIndex ? { L: [] } : { M: {} };
      const next: Value = container[key];
      target = nextIsIndex ? (next.L as Value[]) : (next.M as Item);
    }
    const last = path[path.length - 1];
    if (Array.isArray(target)) target.push(structuredClone(value));
    else target[last as string] = structuredClone(value);
  }
  return result;
};
