/**
 * The official `stripe` library's TypeScript declarations, read as data. The library generates them from
 * Stripe's published OpenAPI description (its OPENAPI_VERSION file names the revision), so an
 * interface's properties are the object's or the request's fields as that description defines them.
 * Used by the Stripe double (which parameters exist) and by its test (which fields an object must carry).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Where the library's generated resource declarations live (…/stripe/cjs/resources). */
export const stripeResources = join(dirname(require.resolve('stripe')), 'resources');

export interface DeclaredProperty {
  name: string;
  optional: boolean;
}

/**
 * The properties of the first `interface <name> {` in `file` (relative to the resources folder, e.g.
 * `Checkout/Sessions.d.ts`): the lines one indentation step inside it that declare `name: type` or
 * `name?: type`, up to the brace that closes it. Throws when the interface is missing or empty, so a
 * renamed file or interface fails loudly instead of checking nothing.
 */
const read = new Map<string, DeclaredProperty[]>();

export const declaredProperties = (file: string, name: string): DeclaredProperty[] => {
  const known = read.get(`${file}#${name}`);
  if (known) return known;
  const lines = readFileSync(join(stripeResources, file), 'utf8').split('\n');
  const start = lines.findIndex((line) =>
    new RegExp(`^\\s*(export )?interface ${name}( extends [^{]+)? \\{$`).test(line),
  );
  if (start < 0) throw new Error(`no interface ${name} in stripe's ${file}`);
  const indent = /^\s*/.exec(lines[start] ?? '')?.[0] ?? '';
  const member = new RegExp(`^${indent}    ([a-z_0-9]+)(\\??):`);
  const properties: DeclaredProperty[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line === `${indent}}`) break;
    const match = member.exec(line);
    if (match?.[1]) properties.push({ name: match[1], optional: match[2] === '?' });
  }
  if (properties.length === 0) throw new Error(`interface ${name} in stripe's ${file} declares no properties`);
  read.set(`${file}#${name}`, properties);
  return properties;
};

/** The names an object of this interface must carry (its non-optional properties). */
export const requiredProperties = (file: string, name: string): string[] =>
  declaredProperties(file, name)
    .filter((property) => !property.optional)
    .map((property) => property.name);
