/**
 * The service on AWS: data, callbacks, workflows and the API, wired by props and grants.
 * The route and workflow tables default to the real ones; tests pass fixtures.
 */
import { Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ROUTES, type RouteDefinition } from '../functions/api/routes';
import { WORKFLOWS, type WorkflowDefinition } from '../functions/workflows/definitions';
import { Alarms } from './constructs/alarms';
import { Api } from './constructs/api';
import { Backends } from './constructs/backends';
import { Callbacks } from './constructs/callbacks';
import { Data } from './constructs/data';
import { Maintenance } from './constructs/maintenance';
import { budgetEnvironment, serviceEnvironment } from './constructs/function-defaults';
import { Workflows } from './constructs/workflows';

export interface ServiceStackProps extends StackProps {
  readonly routes?: readonly RouteDefinition[];
  readonly workflows?: Readonly<Record<string, WorkflowDefinition>>;
  /** Where the route handler modules live, relative to the repository root. */
  readonly apiHandlerDir?: string;
  /** The callback deliverer's handler module, relative to the repository root (default: CALLBACK_QUEUE.handler). */
  readonly callbackDelivererEntry?: string;
}

export class ServiceStack extends Stack {
  constructor(scope: Construct, id: string, props: ServiceStackProps = {}) {
    super(scope, id, props);

    const data = new Data(this, 'Data');
    const backends = new Backends(this, 'Backends', {
      engineUrl: this.node.tryGetContext('engineUrl'),
      trainerUrl: this.node.tryGetContext('trainerUrl'),
      trainerCallbackUrl: this.node.tryGetContext('trainerCallbackUrl'),
    });

    const callbacks = new Callbacks(this, 'Callbacks', {
      table: data.table,
      bucket: data.bucket,
      downloadTokenSecret: data.downloadTokenSecret,
      delivererEntry: props.callbackDelivererEntry,
    });
    data.grantReadWrite(callbacks.deliverer);

    const resources = {
      table: data.table,
      bucket: data.bucket,
      callbackQueue: callbacks.queue,
      downloadTokenSecret: data.downloadTokenSecret,
      backendEnvironment: backends.environment,
      budgetEnvironment: budgetEnvironment(this),
    };

    const workflows = new Workflows(this, 'Workflows', { definitions: props.workflows ?? WORKFLOWS, resources });
    for (const fn of workflows.functions) {
      data.grantReadWrite(fn);
      backends.grantRead(fn);
      callbacks.queue.grantSendMessages(fn);
    }

    const api = new Api(this, 'Api', {
      routes: props.routes ?? ROUTES,
      handlerDir: props.apiHandlerDir ?? 'functions/api',
      environment: serviceEnvironment({ ...resources, stateMachines: workflows.stateMachines }),
    });
    for (const fn of api.functions) {
      data.grantReadWrite(fn);
      backends.grantRead(fn);
      callbacks.queue.grantSendMessages(fn);
      workflows.grantControl(fn);
    }
    for (const route of props.routes ?? ROUTES) {
      const machine = route.answersTasksOf ? workflows.stateMachines.get(route.answersTasksOf) : undefined;
      if (machine) machine.grantTaskResponse(api.functionOf.get(route.handler)!);
    }

    const maintenance = new Maintenance(this, 'Maintenance', {
      environment: serviceEnvironment({ ...resources, stateMachines: workflows.stateMachines }),
    });
    data.grantReadWrite(maintenance.closeAbandonedWork);
    workflows.grantControl(maintenance.closeAbandonedWork);

    new Alarms(this, 'Alarms', { callbackDeadLetterQueue: callbacks.deadLetterQueue, restApi: api.restApi, stateMachines: workflows.stateMachines });
  }
}
