/**
 * The service on AWS: data, callbacks, workflows and the API, wired by props and grants.
 * The route and workflow tables default to the real ones; tests pass fixtures.
 */
import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ROUTES, type RouteDefinition } from '../functions/api/routes';
import { CALLBACK_QUEUE } from '../functions/callbacks/definitions';
import { API_KEY_ACCESS, union } from '../functions/deployment/access';
import { HOSTED_PROVIDER_IDS, HOSTED_PROVIDERS } from '../functions/deployment/providers';
import { ABANDONED_WORK } from '../functions/maintenance/definitions';
import { PORTAL_ROUTE } from '../functions/portal/route';
import { WORKFLOWS, type WorkflowDefinition } from '../functions/workflows/definitions';
import { Alarms } from './constructs/alarms';
import { Api } from './constructs/api';
import { Backends } from './constructs/backends';
import { Callbacks } from './constructs/callbacks';
import { Data } from './constructs/data';
import { budgetEnvironment, serviceEnvironment } from './constructs/function-defaults';
import { type GrantableResources, grantAccess } from './constructs/grants';
import { Maintenance } from './constructs/maintenance';
import { Workflows } from './constructs/workflows';

export interface ServiceStackProps extends StackProps {
  readonly routes?: readonly RouteDefinition[];
  readonly workflows?: Readonly<Record<string, WorkflowDefinition>>;
  /** Where the route handler modules live, relative to the repository root. */
  readonly apiHandlerDir?: string;
  /** The callback deliverer's handler module, relative to the repository root (default: CALLBACK_QUEUE.handler). */
  readonly callbackDelivererEntry?: string;
  /** The developer portal (default: the real one; the fixture stacks have none). */
  readonly portal?: typeof PORTAL_ROUTE | null;
}

export class ServiceStack extends Stack {
  constructor(scope: Construct, id: string, props: ServiceStackProps = {}) {
    super(scope, id, props);

    const data = new Data(this, 'Data');
    const backends = new Backends(this, 'Backends', {
      modelRoutes: this.node.tryGetContext('modelRoutes'),
      modelAliases: this.node.tryGetContext('modelAliases'),
      providerBaseUrls: Object.fromEntries(
        HOSTED_PROVIDER_IDS.map((id) => [id, this.node.tryGetContext(HOSTED_PROVIDERS[id].baseUrl.context)]),
      ),
      engineUrl: this.node.tryGetContext('engineUrl'),
      trainerUrl: this.node.tryGetContext('trainerUrl'),
      trainerCallbackUrl: this.node.tryGetContext('trainerCallbackUrl'),
      stripe: [true, 'true'].includes(this.node.tryGetContext('stripe')),
    });

    const callbacks = new Callbacks(this, 'Callbacks', {
      table: data.table,
      bucket: data.bucket,
      downloadTokenSecret: data.downloadTokenSecret,
      delivererEntry: props.callbackDelivererEntry,
    });

    const resources = {
      table: data.table,
      bucket: data.bucket,
      callbackQueue: callbacks.queue,
      downloadTokenSecret: data.downloadTokenSecret,
      backendEnvironment: backends.environment,
      budgetEnvironment: budgetEnvironment(this),
    };

    const workflows = new Workflows(this, 'Workflows', { definitions: props.workflows ?? WORKFLOWS, resources });
    const grantable: GrantableResources = {
      table: data.table,
      bucket: data.bucket,
      callbackQueue: callbacks.queue,
      deadLetterQueue: callbacks.deadLetterQueue,
      secrets: { downloadToken: data.downloadTokenSecret, ...backends.tokens },
      stateMachines: workflows.stateMachines,
    };
    // Least privilege: each function gets what its row of the tables declares, and nothing else.
    grantAccess(callbacks.deliverer, CALLBACK_QUEUE.access, grantable);
    for (const { fn, access } of workflows.taskFunctions) grantAccess(fn, access, grantable);

    const api = new Api(this, 'Api', {
      routes: props.routes ?? ROUTES,
      handlerDir: props.apiHandlerDir ?? 'functions/api',
      portal: props.portal === null ? undefined : (props.portal ?? (props.routes ? undefined : PORTAL_ROUTE)),
      environment: serviceEnvironment({ ...resources, stateMachines: workflows.stateMachines }),
    });
    for (const { route, fn } of api.routeFunctions) {
      grantAccess(fn, route.auth === 'none' ? route.access : union(API_KEY_ACCESS, route.access), grantable);
    }
    if (api.portalFunction) grantAccess(api.portalFunction, PORTAL_ROUTE.access, grantable);

    const maintenance = new Maintenance(this, 'Maintenance', {
      environment: serviceEnvironment({ ...resources, stateMachines: workflows.stateMachines }),
    });
    // The sweep reads the executions of every workflow the stack has (the test fixtures have fewer).
    const describe = ABANDONED_WORK.access.describe.filter((name) => workflows.stateMachines.has(name));
    grantAccess(maintenance.closeAbandonedWork, { ...ABANDONED_WORK.access, describe }, grantable);

    new Alarms(this, 'Alarms', {
      callbackQueue: callbacks.queue,
      callbackDeadLetterQueue: callbacks.deadLetterQueue,
      restApi: api.restApi,
      stateMachines: workflows.stateMachines,
      functions: [
        ...api.routeFunctions.map(({ route, fn }) => ({ name: `${route.method} ${route.path}`, fn })),
        ...(api.portalFunction ? [{ name: 'developer portal', fn: api.portalFunction }] : []),
        ...workflows.taskFunctions,
        { name: 'callback deliverer', fn: callbacks.deliverer },
        { name: 'abandoned-work sweep', fn: maintenance.closeAbandonedWork },
      ],
    });
  }
}
