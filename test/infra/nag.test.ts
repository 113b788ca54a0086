import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { type Stack, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { ServiceStack } from '../../lib/service-stack';
import { fixtureStack, testApp } from '../fixtures/infra/service-stack';

// aws-cdk-lib's own template validation adds seconds per synth and is not what these tests check.
process.env.CDK_VALIDATION = 'false';

/** The AwsSolutions findings nobody acknowledged. */
const unacknowledged = (stack: Stack) => {
  Template.fromStack(stack); // the rules read the finished resources
  return new AwsSolutionsChecks().validateScope(stack).violations;
};

/** One readable line per finding, so a failure says what to fix and where. */
const unacknowledgedFindings = (stack: Stack): string[] =>
  unacknowledged(stack).map(
    (violation) =>
      `${violation.severity} ${violation.ruleName}: ${violation.violatingResources.map((r) => r.constructPath).join(', ')}`,
  );

/** Every acknowledgement in the tree: the rule id it names and the reason it gives. */
const acknowledgements = (root: IConstruct): { id: string; reason: unknown }[] =>
  root.node
    .findAll()
    .flatMap((construct) => construct.node.metadata)
    .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
    .flatMap((entry) => Object.entries(entry.data))
    .map(([key, reason]) => ({ id: key.replace(/^annotation::/i, ''), reason }));

/** The fixture stack, and the stack built from the real route and workflow tables. */
const STACKS: [string, () => Stack][] = [
  ['the fixture stack', () => fixtureStack()],
  ['the real stack', () => new ServiceStack(testApp(), 'Service')],
];

describe.each(STACKS)('%s', (_name, build) => {
  test('has no unacknowledged AwsSolutions error or warning', () => {
    expect(unacknowledgedFindings(build())).toEqual([]);
  });

  test('gives every acknowledgement a reason of its own', () => {
    const acks = acknowledgements(build());
    expect(acks.length).toBeGreaterThan(0);
    for (const { id, reason } of acks) {
      expect({ id, reason }).toEqual({ id, reason: expect.stringMatching(/^\S.{59,}$/s) });
    }
    const reasons = new Map(acks.map(({ id, reason }) => [id, reason]));
    expect(new Set(reasons.values()).size).toBe(reasons.size);
  });

  test('acknowledges only findings that would otherwise be raised', () => {
    const acknowledged = new Set(acknowledgements(build()).map(({ id }) => id));
    const acknowledge = jest.spyOn(Validations.prototype, 'acknowledge').mockImplementation(() => undefined);
    try {
      const raised = new Set(unacknowledged(build()).map((violation) => violation.ruleName));
      expect([...acknowledged].filter((id) => !raised.has(id))).toEqual([]);
    } finally {
      acknowledge.mockRestore();
    }
  });
});

test('synthesis with the AwsSolutions plugin registered, as bin/app.ts does it, succeeds', () => {
  const outdir = mkdtempSync(path.join(tmpdir(), 'cdk-nag-'));
  try {
    const app = testApp({ outdir });
    fixtureStack({}, app);
    Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
    expect(() => app.synth()).not.toThrow();
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
});
