/**
 * The resource budget: CloudFormation refuses a template of more than 500 resources, and the root and
 * each nested stack is a template of its own. Every template of the real stack stays at most 300 (60 %
 * of the limit), and 40 more routes, spread over the groups as new routes would be, keep every template
 * at most 450. docs/deploy-aws.md ("What a route costs") quotes the per-route cost measured here.
 */
import { ROUTE_GROUPS, ROUTES, type RouteDefinition } from '../../functions/deployment/routes';
import { PORTAL_ROUTE } from '../../functions/portal/route';
import { ServiceStack } from '../../lib/service-stack';
import { testApp } from '../fixtures/infra/service-stack';
import { flatTemplateOf } from '../fixtures/infra/template-queries';

process.env.CDK_VALIDATION = 'false';

const BUDGET = 300;
const BUDGET_WITH_40_MORE_ROUTES = 450;
/** What one more route costs its group's stack (docs/deploy-aws.md). */
const ROUTE_COST_IN_GROUP = 12;

/** Each template's resource count, by the nested stack's construct id (`root` for the root). */
const resourceCounts = (stack: ServiceStack): Record<string, number> => {
  const { root, nested } = flatTemplateOf(stack);
  const counts: Record<string, number> = { root: Object.keys(root.Resources).length };
  for (const [logicalId, template] of nested)
    counts[logicalId.replace(/NestedStack.*$/, '')] = Object.keys(template.Resources).length;
  return counts;
};

/** A route to each hosted provider, so the stack makes every provider's secret. */
const MODEL_ROUTES_OF_EVERY_PROVIDER = {
  'base-b-2': 'openai:gpt-image-2',
  'base-c-2': 'gemini:gemini-3.1-flash-image',
  'base-a-2': 'fal:fal-ai/flux-2',
};

/** A route like most: buffered, authenticated, reading and writing the table. */
const extraRoute = (index: number): RouteDefinition => ({
  method: 'POST',
  group: ROUTE_GROUPS[index % ROUTE_GROUPS.length],
  path: `/extra-${index}`,
  scope: 'jobs',
  handler: 'account/account',
  access: { table: 'write', queues: ['callbacks'] },
});

const real = resourceCounts(new ServiceStack(testApp(), 'Service'));

test(`every template of the stack holds at most ${BUDGET} resources`, () => {
  expect(Object.keys(real)).toEqual(expect.arrayContaining(['root', 'Workflows', 'Alarms', 'Images', 'Portal']));
  for (const [template, count] of Object.entries(real))
    expect({ template, count }).toEqual({ template, count: expect.any(Number) });
  expect(Object.entries(real).filter(([, count]) => count > BUDGET)).toEqual([]);
});

test(`with Stripe and every provider's secret, every template still holds at most ${BUDGET}`, () => {
  const context = {
    stripe: 'true',
    modelRoutes: MODEL_ROUTES_OF_EVERY_PROVIDER,
  };
  const counts = resourceCounts(new ServiceStack(testApp({ context }), 'Service'));
  expect(Object.entries(counts).filter(([, count]) => count > BUDGET)).toEqual([]);
});

test(`40 more routes, spread over the groups, keep every template at most ${BUDGET_WITH_40_MORE_ROUTES}`, () => {
  const extra = Array.from({ length: 40 }, (_, index) => extraRoute(index));
  const grown = resourceCounts(
    new ServiceStack(testApp(), 'Service', { routes: [...ROUTES, ...extra], portal: PORTAL_ROUTE }),
  );
  expect(Object.entries(grown).filter(([, count]) => count > BUDGET_WITH_40_MORE_ROUTES)).toEqual([]);
  // Routes cost resources in their group's stack only: the root does not grow with them.
  expect(grown.root).toBe(real.root);
});

test('a route costs a fixed number of resources in its group stack, and none elsewhere', () => {
  const oneMore = resourceCounts(
    new ServiceStack(testApp(), 'Service', {
      routes: [...ROUTES, { ...extraRoute(0), group: 'jobs' }],
      portal: PORTAL_ROUTE,
    }),
  );
  const grew = Object.fromEntries(
    Object.entries(oneMore)
      .map(([template, count]) => [template, count - (real[template] ?? 0)])
      .filter(([, delta]) => delta !== 0),
  );
  // function, role, policy, version, `live` alias, deployment group, errors alarm, invoke permission, and
  // under /v2 and /v1 a method and its path resource (a path of more new segments costs one more each);
  // every tenth function adds a throttle alarm in the alarms' stack.
  expect(grew).toEqual({ Jobs: ROUTE_COST_IN_GROUP });
});
