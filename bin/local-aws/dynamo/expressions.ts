/**
 * DynamoDB's expression languages: condition (ConditionExpression, FilterExpression,
 * KeyConditionExpression), update (UpdateExpression) and projection (ProjectionExpression), parsed into
 * small trees and evaluated against an item. Names (`#n`) and values (`:v`) are resolved through the
 * request's maps; a name or value a request defines but no expression uses is refused, as DynamoDB does.
 */
import { DynamoError } from './errors';
import { RESERVED_WORDS } from './reserved-words';
import {
  addNumbers,
  checkValue,
  combineSets,
  compareScalars,
  getPath,
  type Item,
  isSet,
  type PathStep,
  pathText,
  removePath,
  setPath,
  typeOf,
  type Value,
  valuesEqual,
} from './values';

type Operand =
  | { kind: 'path'; path: PathStep[] }
  | { kind: 'value'; value: Value }
  | { kind: 'size'; path: PathStep[] };

export type Condition =
  | { kind: 'and' | 'or'; left: Condition; right: Condition }
  | { kind: 'not'; inner: Condition }
  | { kind: 'compare'; op: '=' | '<>' | '<' | '<=' | '>' | '>='; left: Operand; right: Operand }
  | { kind: 'between'; subject: Operand; low: Operand; high: Operand }
  | { kind: 'in'; subject: Operand; options: Operand[] }
  | {
      kind: 'function';
      name: 'attribute_exists' | 'attribute_not_exists' | 'attribute_type' | 'begins_with' | 'contains';
      args: Operand[];
    };

type SetValue =
  | { kind: 'operand'; operand: Operand }
  | { kind: 'if_not_exists'; path: PathStep[]; fallback: SetValue }
  | { kind: 'list_append'; first: SetValue; second: SetValue }
  | { kind: 'arithmetic'; op: '+' | '-'; left: SetValue; right: SetValue };

export interface Update {
  set: Array<{ path: PathStep[]; value: SetValue }>;
  remove: PathStep[][];
  add: Array<{ path: PathStep[]; value: Value }>;
  delete: Array<{ path: PathStep[]; value: Value }>;
}

const invalid = (message: string) => new DynamoError('ValidationException', message);

/** The names and values of one request, shared by its expressions, with what they used. */
export class Scope {
  private readonly usedNames = new Set<string>();
  private readonly usedValues = new Set<string>();

  constructor(
    private readonly names: Record<string, string> | undefined,
    private readonly values: Record<string, unknown> | undefined,
  ) {}

  name(token: string): string {
    const name = this.names?.[token];
    if (name === undefined)
      throw invalid(`An expression attribute name used in the document path is not defined; attribute name: ${token}`);
    this.usedNames.add(token);
    return name;
  }

  value(token: string): Value {
    const value = this.values?.[token];
    if (value === undefined)
      throw invalid(`An expression attribute value used in expression is not defined; attribute value: ${token}`);
    this.usedValues.add(token);
    return checkValue(value);
  }

  /** After every expression of the request is parsed: DynamoDB refuses definitions nothing used. */
  checkAllUsed(): void {
    const unusedNames = Object.keys(this.names ?? {}).filter((name) => !this.usedNames.has(name));
    if (unusedNames.length > 0)
      throw invalid(
        `Value provided in ExpressionAttributeNames unused in expressions: keys: {${unusedNames.join(', ')}}`,
      );
    const unusedValues = Object.keys(this.values ?? {}).filter((value) => !this.usedValues.has(value));
    if (unusedValues.length > 0)
      throw invalid(
        `Value provided in ExpressionAttributeValues unused in expressions: keys: {${unusedValues.join(', ')}}`,
      );
    if (this.names && Object.keys(this.names).length === 0) throw invalid('ExpressionAttributeNames must not be empty');
    if (this.values && Object.keys(this.values).length === 0)
      throw invalid('ExpressionAttributeValues must not be empty');
  }
}

// ---- tokens ----

interface Token {
  kind: 'name' | 'attrName' | 'value' | 'number' | 'punct' | 'end';
  text: string;
  at: number;
}

const TOKEN = /\s+|(#[A-Za-z0-9_]+)|(:[A-Za-z0-9_]+)|([A-Za-z_][A-Za-z0-9_]*)|(\d+)|(<>|<=|>=|[=<>(),.[\]+-])/y;

const tokenize = (expression: string, label: string): Token[] => {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < expression.length) {
    const at = TOKEN.lastIndex;
    const match = TOKEN.exec(expression);
    if (!match)
      throw invalid(
        `Invalid ${label}: Syntax error; token: "${expression[at]}", near: "${expression.slice(Math.max(0, at - 5), at + 5)}"`,
      );
    const [, attrName, value, name, number, punct] = match;
    if (attrName) tokens.push({ kind: 'attrName', text: attrName, at });
    else if (value) tokens.push({ kind: 'value', text: value, at });
    else if (name) tokens.push({ kind: 'name', text: name, at });
    else if (number) tokens.push({ kind: 'number', text: number, at });
    else if (punct) tokens.push({ kind: 'punct', text: punct, at });
  }
  tokens.push({ kind: 'end', text: '<EOF>', at: expression.length });
  return tokens;
};

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'BETWEEN', 'IN']);
const CONDITION_FUNCTIONS = new Set([
  'attribute_exists',
  'attribute_not_exists',
  'attribute_type',
  'begins_with',
  'contains',
]);

class Parser {
  private position = 0;
  private readonly tokens: Token[];

  constructor(
    private readonly expression: string,
    private readonly label: string,
    private readonly scope: Scope,
  ) {
    if (expression.trim() === '') throw invalid(`Invalid ${label}: The expression can not be empty;`);
    this.tokens = tokenize(expression, label);
  }

  private get peek(): Token {
    return this.tokens[this.position];
  }

  private next(): Token {
    return this.tokens[this.position++];
  }

  fail(token: Token = this.peek): never {
    throw invalid(
      `Invalid ${this.label}: Syntax error; token: "${token.text}", near: "${this.expression.slice(Math.max(0, token.at - 8), token.at + 8)}"`,
    );
  }

  private isKeyword(word: string, token: Token = this.peek): boolean {
    return token.kind === 'name' && token.text.toUpperCase() === word;
  }

  private isPunct(text: string, token: Token = this.peek): boolean {
    return token.kind === 'punct' && token.text === text;
  }

  private expect(text: string): void {
    if (!this.isPunct(text)) this.fail();
    this.position += 1;
  }

  done(): void {
    if (this.peek.kind !== 'end') this.fail();
  }

  // -- paths and operands --

  path(): PathStep[] {
    const first = this.next();
    const steps: PathStep[] = [this.pathName(first)];
    for (;;) {
      if (this.isPunct('.')) {
        this.position += 1;
        steps.push(this.pathName(this.next()));
      } else if (this.isPunct('[')) {
        this.position += 1;
        const index = this.next();
        if (index.kind !== 'number') this.fail(index);
        this.expect(']');
        steps.push(Number(index.text));
      } else return steps;
    }
  }

  private pathName(token: Token): string {
    if (token.kind === 'attrName') return this.scope.name(token.text);
    if (token.kind !== 'name' || KEYWORDS.has(token.text.toUpperCase())) this.fail(token);
    if (RESERVED_WORDS.has(token.text.toUpperCase()))
      throw invalid(`Invalid ${this.label}: Attribute name is a reserved keyword; reserved keyword: ${token.text}`);
    return token.text;
  }

  operand(): Operand {
    const token = this.peek;
    if (token.kind === 'value') {
      this.position += 1;
      return { kind: 'value', value: this.scope.value(token.text) };
    }
    if (token.kind === 'name' && token.text === 'size' && this.isPunct('(', this.tokens[this.position + 1])) {
      this.position += 2;
      const path = this.path();
      this.expect(')');
      return { kind: 'size', path };
    }
    return { kind: 'path', path: this.path() };
  }

  // -- conditions --

  /** OR binds loosest, then AND, then NOT. */
  condition(): Condition {
    return this.chain('OR', () => this.chain('AND', () => this.negation()));
  }

  private chain(keyword: 'OR' | 'AND', operand: () => Condition): Condition {
    let left = operand();
    while (this.isKeyword(keyword)) {
      this.position += 1;
      left = { kind: keyword === 'OR' ? 'or' : 'and', left, right: operand() };
    }
    return left;
  }

  private negation(): Condition {
    if (this.isKeyword('NOT')) {
      this.position += 1;
      return { kind: 'not', inner: this.negation() };
    }
    return this.primary();
  }

  private primary(): Condition {
    const token = this.peek;
    if (this.isPunct('(')) {
      this.position += 1;
      const inner = this.condition();
      this.expect(')');
      return inner;
    }
    if (
      token.kind === 'name' &&
      CONDITION_FUNCTIONS.has(token.text) &&
      this.isPunct('(', this.tokens[this.position + 1])
    ) {
      this.position += 2;
      const args = [this.operand()];
      while (this.isPunct(',')) {
        this.position += 1;
        args.push(this.operand());
      }
      this.expect(')');
      const name = token.text as Extract<Condition, { kind: 'function' }>['name'];
      const arity = name === 'attribute_exists' || name === 'attribute_not_exists' ? 1 : 2;
      if (args.length !== arity)
        throw invalid(
          `Invalid ${this.label}: Incorrect number of operands for operator or function; operator or function: ${name}, number of operands: ${args.length}`,
        );
      if (args[0].kind !== 'path' && name !== 'begins_with')
        throw invalid(
          `Invalid ${this.label}: Operator or function requires a document path; operator or function: ${name}`,
        );
      return { kind: 'function', name, args };
    }
    const subject = this.operand();
    if (this.isKeyword('BETWEEN')) {
      this.position += 1;
      const low = this.operand();
      if (!this.isKeyword('AND')) this.fail();
      this.position += 1;
      return { kind: 'between', subject, low, high: this.operand() };
    }
    if (this.isKeyword('IN')) {
      this.position += 1;
      this.expect('(');
      const options = [this.operand()];
      while (this.isPunct(',')) {
        this.position += 1;
        options.push(this.operand());
      }
      this.expect(')');
      return { kind: 'in', subject, options };
    }
    const op = this.next();
    if (op.kind !== 'punct' || !['=', '<>', '<', '<=', '>', '>='].includes(op.text)) this.fail(op);
    return { kind: 'compare', op: op.text as '=', left: subject, right: this.operand() };
  }

  // -- updates --

  update(): Update {
    const update: Update = { set: [], remove: [], add: [], delete: [] };
    const seen = new Set<string>();
    while (this.peek.kind !== 'end') {
      const clause = this.next();
      const word = clause.kind === 'name' ? clause.text.toUpperCase() : '';
      if (!['SET', 'REMOVE', 'ADD', 'DELETE'].includes(word)) this.fail(clause);
      if (seen.has(word))
        throw invalid(`Invalid ${this.label}: The "${word}" section can only be used once in an update expression;`);
      seen.add(word);
      for (;;) {
        const path = this.path();
        if (word === 'SET') {
          this.expect('=');
          update.set.push({ path, value: this.setValue() });
        } else if (word === 'REMOVE') update.remove.push(path);
        else {
          const value = this.next();
          if (value.kind !== 'value') this.fail(value);
          (word === 'ADD' ? update.add : update.delete).push({ path, value: this.scope.value(value.text) });
        }
        if (!this.isPunct(',')) break;
        this.position += 1;
      }
    }
    return update;
  }

  private setValue(): SetValue {
    const left = this.setOperand();
    if (this.isPunct('+') || this.isPunct('-')) {
      const op = this.next().text as '+' | '-';
      return { kind: 'arithmetic', op, left, right: this.setOperand() };
    }
    return left;
  }

  private setOperand(): SetValue {
    const token = this.peek;
    if (
      token.kind === 'name' &&
      (token.text === 'if_not_exists' || token.text === 'list_append') &&
      this.isPunct('(', this.tokens[this.position + 1])
    ) {
      this.position += 2;
      if (token.text === 'if_not_exists') {
        const path = this.path();
        this.expect(',');
        const fallback = this.setOperand();
        this.expect(')');
        return { kind: 'if_not_exists', path, fallback };
      }
      const first = this.setOperand();
      this.expect(',');
      const second = this.setOperand();
      this.expect(')');
      return { kind: 'list_append', first, second };
    }
    const operand = this.operand();
    if (operand.kind === 'size')
      throw invalid(`Invalid ${this.label}: The function is not allowed in an update expression; function: size`);
    return { kind: 'operand', operand };
  }

  projection(): PathStep[][] {
    const paths = [this.path()];
    while (this.isPunct(',')) {
      this.position += 1;
      paths.push(this.path());
    }
    return paths;
  }
}

export const parseCondition = (expression: string, label: string, scope: Scope): Condition => {
  const parser = new Parser(expression, label, scope);
  const condition = parser.condition();
  parser.done();
  return condition;
};

export const parseUpdate = (expression: string, scope: Scope): Update => {
  const parser = new Parser(expression, 'UpdateExpression', scope);
  const update = parser.update();
  parser.done();
  const paths = [
    ...update.set.map((action) => action.path),
    ...update.remove,
    ...update.add.map((action) => action.path),
    ...update.delete.map((action) => action.path),
  ].map(pathText);
  const overlap = paths.find((path, index) =>
    paths.some(
      (other, otherIndex) =>
        otherIndex !== index && (other === path || other.startsWith(`${path}.`) || other.startsWith(`${path}[`)),
    ),
  );
  if (overlap)
    throw invalid(
      `Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [${overlap}]`,
    );
  return update;
};

export const parseProjection = (expression: string, scope: Scope): PathStep[][] => {
  const parser = new Parser(expression, 'ProjectionExpression', scope);
  const paths = parser.projection();
  parser.done();
  return paths;
};

// ---- evaluation ----

const resolve = (operand: Operand, item: Item): Value | undefined => {
  if (operand.kind === 'value') return operand.value;
  const value = getPath(item, operand.path);
  if (operand.kind === 'path' || !value) return value;
  const type = typeOf(value);
  if (type === 'S') return { N: String(Buffer.byteLength(value.S as string)) };
  if (type === 'B') return { N: String(Buffer.from(value.B as string, 'base64').length) };
  if (type === 'M') return { N: String(Object.keys(value.M as Item).length) };
  if (type === 'L' || isSet(value)) return { N: String((value[type] as unknown[]).length) };
  return undefined;
};

const TYPE_NAMES = new Set(['S', 'N', 'B', 'BOOL', 'NULL', 'M', 'L', 'SS', 'NS', 'BS']);

export const evaluate = (condition: Condition, item: Item): boolean => {
  switch (condition.kind) {
    case 'and':
      return evaluate(condition.left, item) && evaluate(condition.right, item);
    case 'or':
      return evaluate(condition.left, item) || evaluate(condition.right, item);
    case 'not':
      return !evaluate(condition.inner, item);
    case 'compare': {
      const [left, right] = [resolve(condition.left, item), resolve(condition.right, item)];
      if (condition.op === '=') return valuesEqual(left, right);
      if (condition.op === '<>') return !valuesEqual(left, right);
      const order = compareScalars(left, right);
      if (order === undefined) return false;
      return condition.op === '<'
        ? order < 0
        : condition.op === '<='
          ? order <= 0
          : condition.op === '>'
            ? order > 0
            : order >= 0;
    }
    case 'between': {
      const subject = resolve(condition.subject, item);
      const low = compareScalars(subject, resolve(condition.low, item));
      const high = compareScalars(subject, resolve(condition.high, item));
      return low !== undefined && high !== undefined && low >= 0 && high <= 0;
    }
    case 'in': {
      const subject = resolve(condition.subject, item);
      return condition.options.some((option) => valuesEqual(subject, resolve(option, item)));
    }
    case 'function': {
      const [first, second] = condition.args.map((arg) => resolve(arg, item));
      switch (condition.name) {
        case 'attribute_exists':
          return first !== undefined;
        case 'attribute_not_exists':
          return first === undefined;
        case 'attribute_type': {
          const wanted = second && typeOf(second) === 'S' ? (second.S as string) : '';
          if (!TYPE_NAMES.has(wanted))
            throw invalid(
              `Invalid ConditionExpression: Invalid attribute type name found; type: ${wanted}, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}`,
            );
          return first !== undefined && typeOf(first) === wanted;
        }
        case 'begins_with': {
          if (!first || !second || typeOf(first) !== typeOf(second)) return false;
          if (typeOf(first) === 'S') return (first.S as string).startsWith(second.S as string);
          if (typeOf(first) === 'B') {
            const [whole, prefix] = [
              Buffer.from(first.B as string, 'base64'),
              Buffer.from(second.B as string, 'base64'),
            ];
            return whole.subarray(0, prefix.length).equals(prefix);
          }
          return false;
        }
        case 'contains': {
          if (!first || !second) return false;
          const type = typeOf(first);
          if (type === 'S' && typeOf(second) === 'S') return (first.S as string).includes(second.S as string);
          if (type === 'L') return (first.L as Value[]).some((member) => valuesEqual(member, second));
          if (!isSet(first)) return false;
          const scalar = type.slice(0, 1);
          return (
            typeOf(second) === scalar &&
            (first[type] as string[]).some((member) => valuesEqual({ [scalar]: member }, second))
          );
        }
      }
    }
  }
};

const computeSetValue = (value: SetValue, item: Item): Value => {
  switch (value.kind) {
    case 'operand': {
      const resolved = resolve(value.operand, item);
      if (!resolved) throw invalid('The provided expression refers to an attribute that does not exist in the item');
      return resolved;
    }
    case 'if_not_exists':
      return getPath(item, value.path) ?? computeSetValue(value.fallback, item);
    case 'list_append': {
      const [first, second] = [computeSetValue(value.first, item), computeSetValue(value.second, item)];
      if (typeOf(first) !== 'L' || typeOf(second) !== 'L')
        throw invalid(
          'Invalid UpdateExpression: Incorrect operand type for operator or function; operator or function: list_append',
        );
      return { L: [...(first.L as Value[]), ...(second.L as Value[])] };
    }
    case 'arithmetic': {
      const [left, right] = [computeSetValue(value.left, item), computeSetValue(value.right, item)];
      if (typeOf(left) !== 'N' || typeOf(right) !== 'N')
        throw invalid(
          `Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ${value.op}`,
        );
      return { N: addNumbers(left.N as string, right.N as string, value.op === '-') };
    }
  }
};

/** The item after an update: every right-hand side is read from the item before it, as DynamoDB does. */
export const applyUpdate = (update: Update, before: Item, keyNames: string[]): Item => {
  const touched = [
    ...update.set.map((a) => a.path),
    ...update.remove,
    ...update.add.map((a) => a.path),
    ...update.delete.map((a) => a.path),
  ];
  const key = touched.find((path) => path.length === 1 && keyNames.includes(path[0] as string));
  if (key)
    throw invalid(
      `One or more parameter values were invalid: Cannot update attribute ${key[0]}. This attribute is part of the key`,
    );
  const values = update.set.map((action) => computeSetValue(action.value, before));
  const after = structuredClone(before);
  for (const [index, action] of update.set.entries()) setPath(after, action.path, values[index]);
  for (const path of update.remove) removePath(after, path);
  for (const action of update.add) {
    const current = getPath(before, action.path);
    const type = typeOf(action.value);
    if (type === 'N') {
      if (current && typeOf(current) !== 'N')
        throw invalid('An operand in the update expression has an incorrect data type');
      setPath(
        after,
        action.path,
        current ? { N: addNumbers(current.N as string, action.value.N as string) } : action.value,
      );
    } else if (isSet(action.value)) {
      if (current && typeOf(current) !== type)
        throw invalid('An operand in the update expression has an incorrect data type');
      const combined = current ? combineSets(current, action.value, false) : action.value;
      if (!combined) throw invalid('An operand in the update expression has an incorrect data type');
      setPath(after, action.path, combined);
    } else
      throw invalid(
        'Invalid UpdateExpression: Incorrect operand type for operator or function; operator: ADD, operand type: ' +
          type,
      );
  }
  for (const action of update.delete) {
    const current = getPath(before, action.path);
    if (!isSet(action.value))
      throw invalid(
        `Invalid UpdateExpression: Incorrect operand type for operator or function; operator: DELETE, operand type: ${typeOf(action.value)}`,
      );
    if (!current) continue;
    if (typeOf(current) !== typeOf(action.value))
      throw invalid('An operand in the update expression has an incorrect data type');
    const remaining = combineSets(current, action.value, true);
    if (remaining) setPath(after, action.path, remaining);
    else removePath(after, action.path);
  }
  return after;
};
