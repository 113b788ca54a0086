/**
 * Read first: one template out of a stack and its nested stacks, as CloudFormation would see them once
 * deployed. The service stack is split into nested stacks by resource group (lib/service-stack.ts); what
 * `npm run start:assets` runs and what the infrastructure tests assert reads better as one template, so
 * every nested stack's resources are lifted into the root's namespace:
 * - a nested resource `Fn` of the stack resource `Images` becomes `ImagesFn` (ids stay alphanumeric, as
 *   the local runtime names functions and state machines by them);
 * - a nested `Ref` to one of its Parameters becomes the expression the parent passes for it;
 * - a parent's `Fn::GetAtt [Images, Outputs.X]` becomes the nested output's value;
 * - the `AWS::CloudFormation::Stack` resources themselves are dropped.
 * A nested template is found through the assets manifest that `cdk synth` writes beside the root one:
 * its TemplateURL ends in `<hash>.json`, the manifest names the file of that hash.
 */
import fs from 'node:fs';
import path from 'node:path';

// biome-ignore lint/suspicious/noExplicitAny: a CloudFormation template is untyped JSON, read here by path
type Json = { [key: string]: any };

export interface TemplateJson {
  Resources: Record<string, Json>;
  Parameters?: Record<string, Json>;
  Outputs?: Record<string, Json>;
  [section: string]: unknown;
}

export const NESTED_STACK_TYPE = 'AWS::CloudFormation::Stack';

/** The file of each nested template hash, from the assets manifests in `outdir`. */
const nestedTemplateFiles = (outdir: string): Map<string, string> => {
  const files = new Map<string, string>();
  for (const name of fs.readdirSync(outdir).filter((file) => file.endsWith('.assets.json'))) {
    const manifest = JSON.parse(fs.readFileSync(path.join(outdir, name), 'utf8')) as {
      files?: Record<string, { source: { path: string } }>;
    };
    for (const [hash, { source }] of Object.entries(manifest.files ?? {}))
      if (source.path.endsWith('.template.json')) files.set(hash, path.join(outdir, source.path));
  }
  return files;
};

/** A nested stack resource's template, read from the cloud assembly in `outdir`. */
export const nestedTemplateReader = (outdir: string) => {
  const files = nestedTemplateFiles(outdir);
  return (logicalId: string, resource: Json): TemplateJson => {
    const hash = JSON.stringify(resource.Properties?.TemplateURL ?? '').match(/([0-9a-f]{64})\.json/)?.[1];
    const file = hash && files.get(hash);
    if (!file) throw new Error(`nested stack ${logicalId}: no template in the assembly for its TemplateURL`);
    return JSON.parse(fs.readFileSync(file, 'utf8')) as TemplateJson;
  };
};

const isPseudo = (name: string) => name.startsWith('AWS::');

/**
 * Rewrites the references of a nested template's expression into its parent's namespace: resources get
 * the prefix, parameters the parent's expression for them.
 */
const lift = (value: unknown, prefix: string, parameters: Record<string, unknown>): unknown => {
  if (Array.isArray(value)) return value.map((item) => lift(item, prefix, parameters));
  if (value === null || typeof value !== 'object') return value;
  const node = value as Json;
  if ('Ref' in node && typeof node.Ref === 'string') {
    if (isPseudo(node.Ref)) return node;
    if (node.Ref in parameters) return parameters[node.Ref];
    return { Ref: `${prefix}${node.Ref}` };
  }
  if ('Fn::GetAtt' in node) {
    const [id, attribute] = node['Fn::GetAtt'] as [string, string];
    return { 'Fn::GetAtt': [`${prefix}${id}`, attribute] };
  }
  if ('Fn::Sub' in node) {
    const [text, variables = {}] = typeof node['Fn::Sub'] === 'string' ? [node['Fn::Sub'], {}] : node['Fn::Sub'];
    const bound: Record<string, unknown> = {};
    const rewritten = (text as string).replace(/\$\{([^}!]+)\}/g, (whole, name: string) => {
      const [id, ...attribute] = name.split('.');
      if (isPseudo(id) || id in variables) return whole;
      if (id in parameters) {
        bound[id] = parameters[id];
        return whole;
      }
      return `\${${[`${prefix}${id}`, ...attribute].join('.')}}`;
    });
    const liftedVariables = lift(variables, prefix, parameters) as Json;
    return { 'Fn::Sub': [rewritten, { ...liftedVariables, ...bound }] };
  }
  return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, lift(item, prefix, parameters)]));
};

/** Replaces `Fn::GetAtt [stack, Outputs.X]` of the lifted nested stacks by the outputs' values. */
const resolveOutputs = (value: unknown, outputs: Map<string, Record<string, unknown>>): unknown => {
  if (Array.isArray(value)) return value.map((item) => resolveOutputs(item, outputs));
  if (value === null || typeof value !== 'object') return value;
  const node = value as Json;
  if ('Fn::GetAtt' in node) {
    const [id, attribute] = node['Fn::GetAtt'] as [string, string];
    const stackOutputs = outputs.get(id);
    if (stackOutputs && attribute.startsWith('Outputs.')) {
      const name = attribute.slice('Outputs.'.length);
      if (!(name in stackOutputs)) throw new Error(`nested stack ${id} has no output ${name}`);
      return resolveOutputs(stackOutputs[name], outputs);
    }
  }
  return Object.fromEntries(Object.entries(node).map(([key, item]) => [key, resolveOutputs(item, outputs)]));
};

/**
 * The template with every nested stack's resources lifted into it (recursively), and each nested stack's
 * own template by the stack resource's logical id (for per-template checks such as the resource budget).
 */
export const flattenTemplate = (
  root: TemplateJson,
  readNested: (logicalId: string, resource: Json) => TemplateJson,
): { template: TemplateJson; nested: Map<string, TemplateJson> } => {
  const nested = new Map<string, TemplateJson>();
  const flatten = (template: TemplateJson, prefix: string, parameters: Record<string, unknown>): TemplateJson => {
    const resources: Record<string, Json> = {};
    const outputs = new Map<string, Record<string, unknown>>();
    for (const [id, resource] of Object.entries(template.Resources)) {
      const lifted = lift(resource, prefix, parameters) as Json;
      if (resource.Type !== NESTED_STACK_TYPE) {
        if (lifted.DependsOn)
          lifted.DependsOn = [lifted.DependsOn].flat().map((dependency: string) => `${prefix}${dependency}`);
        resources[`${prefix}${id}`] = lifted;
        continue;
      }
      const child = readNested(id, resource);
      nested.set(`${prefix}${id}`, child);
      const childParameters = (lifted.Properties?.Parameters ?? {}) as Record<string, unknown>;
      const flat = flatten(child, `${prefix}${id}`, childParameters);
      Object.assign(resources, flat.Resources);
      outputs.set(
        `${prefix}${id}`,
        Object.fromEntries(Object.entries(flat.Outputs ?? {}).map(([name, output]) => [name, output.Value])),
      );
    }
    const liftedOutputs = Object.fromEntries(
      Object.entries(template.Outputs ?? {}).map(([name, output]) => [name, lift(output, prefix, parameters) as Json]),
    );
    return {
      ...template,
      Resources: resolveOutputs(resources, outputs) as Record<string, Json>,
      Outputs: resolveOutputs(liftedOutputs, outputs) as Record<string, Json>,
    };
  };
  const template = flatten(root, '', {});
  delete template.Parameters;
  return { template, nested };
};

/** The root template file of a cloud assembly, flattened with its nested stacks. */
export const readFlatTemplate = (templateFile: string) => {
  const root = JSON.parse(fs.readFileSync(templateFile, 'utf8')) as TemplateJson;
  return flattenTemplate(root, nestedTemplateReader(path.dirname(templateFile)));
};

/**
 * The function an expression invokes: `Fn::GetAtt [fn, Arn]`, `Ref fn`, or the `Ref` of an alias of it
 * (what API Gateway, the state machines and the event source invoke); undefined when it names none.
 */
export const invokedFunction = (resources: Record<string, Json>, expression: unknown): string | undefined => {
  const text = JSON.stringify(expression ?? '');
  const ids = [
    ...[...text.matchAll(/"Fn::GetAtt":\["([^"]+)","Arn"\]/g)].map((match) => match[1]),
    ...[...text.matchAll(/"Ref":"([^"]+)"/g)].map((match) => match[1]),
  ];
  for (const id of ids) {
    const type = resources[id]?.Type;
    if (type === 'AWS::Lambda::Function') return id;
    if (type === 'AWS::Lambda::Alias') return invokedFunction(resources, resources[id].Properties.FunctionName);
  }
  return undefined;
};
