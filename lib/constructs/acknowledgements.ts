/**
 * Read first: how cdk-nag 3 findings are acknowledged.
 *
 * cdk-nag 3 reads CDK's own `Validations.of(scope).acknowledge({ id, reason })` on the resource or any
 * of its ancestors. A wildcard in an IAM policy is one finding per wildcard, named by the flattened
 * resource, e.g. `AwsSolutions-IAM5[Resource::<DataTable1234.Arn>/index/*]`, and an acknowledgement must
 * name that finding exactly (there is no prefix matching). `wildcardResourceFinding` builds that name
 * from the very token the grant used, the way cdk-nag flattens it, so the acknowledgement follows the
 * resource when its logical id changes and never covers any other resource.
 */
import { Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

export const acknowledge = (scope: IConstruct, id: string, reason: string): void =>
  Validations.of(scope).acknowledge({ id, reason });

/** Acknowledge the wildcard resource `resource` (a string that may hold tokens) wherever it is granted in the stack. */
export const acknowledgeWildcardResource = (scope: IConstruct, resource: string, reason: string): void =>
  acknowledge(Stack.of(scope), wildcardResourceFinding(scope, resource), reason);

export const wildcardResourceFinding = (scope: IConstruct, resource: string): string =>
  `AwsSolutions-IAM5[Resource::${flatten(Stack.of(scope).resolve(resource))}]`;

/** Same rendering as cdk-nag's flattenCfnReference: `<LogicalId.Attr>` for GetAtt, `<LogicalId>` for Ref. */
const flatten = (node: unknown): string => {
  if (node === undefined) return '';
  if (typeof node === 'string') return node.replace(/\${/g, '<').replace(/}/g, '>');
  if (typeof node === 'object' && node !== null && !Array.isArray(node)) {
    const intrinsic = new Map(Object.entries(node));
    const join = intrinsic.get('Fn::Join');
    if (Array.isArray(join) && typeof join[0] === 'string' && Array.isArray(join[1])) {
      return join[1].map(flatten).join(join[0]);
    }
    if (intrinsic.has('Fn::Sub')) return flatten(intrinsic.get('Fn::Sub'));
    const getAtt = intrinsic.get('Fn::GetAtt');
    if (Array.isArray(getAtt)) return `<${flatten(getAtt[0])}.${flatten(getAtt[1])}>`;
    if (intrinsic.has('Ref')) return `<${flatten(intrinsic.get('Ref'))}>`;
  }
  return JSON.stringify(node);
};
