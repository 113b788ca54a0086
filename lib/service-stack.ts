/**
 * The service on AWS, as a root stack and nested stacks by resource group, each far below CloudFormation's
 * 500 resources (docs/deploy-aws.md, "What a route costs"):
 * - the root: the data (table, bucket, secrets), the callback queue and its deliverer, the REST API with
 *   its stage and shared path prefixes, the alarm topic and the API's unexpected-5xx alarm, the sweep;
 * - `Workflows`: the state machines and their Task functions;
 * - one stack per route group (images, jobs, profiles, account, providers, portal): its routes' functions;
 * - `Alarms`: the alarms on queues, workflows, money and throttles, and the dashboard.
 * Every function is published behind its `live` alias and rolled out by CodeDeploy (lib/constructs/live.ts).
 * The route and workflow tables default to the real ones; tests pass fixtures.
 */
import { CfnParameter, NestedStack, Stack, type StackProps } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { MODEL_ID } from '../functions/adapters/faces/face-models';
import { CALLBACK_QUEUE } from '../functions/callbacks/definitions';
import { HOSTED_PROVIDER_IDS, HOSTED_PROVIDERS } from '../functions/deployment/providers';
import {
  ROUTE_GROUPS,
  ROUTES,
  type RouteDefinition,
  type RouteGroup,
  routePath,
  routeVersions,
} from '../functions/deployment/routes';
import { ABANDONED_WORK } from '../functions/maintenance/definitions';
import { PORTAL_ROUTE } from '../functions/portal/route';
import { WORKFLOWS, type WorkflowDefinition } from '../functions/workflows/definitions';
import { Alarms, alarmTopic, unexpectedServerErrorsAlarm } from './constructs/alarms';
import { Api } from './constructs/api';
import { Backends } from './constructs/backends';
import { Callbacks } from './constructs/callbacks';
import { Data } from './constructs/data';
import { budgetEnvironment, constructId, serviceEnvironment } from './constructs/function-defaults';
import { type GrantableResources, grantAccess } from './constructs/grants';
import { LiveDeployments, type LiveDeploymentsProps, type LiveFunction } from './constructs/live';
import { Maintenance } from './constructs/maintenance';
import { Workflows } from './constructs/workflows';
import { grantableIn } from './stacks/imports';
import { type GroupSite, RouteGroupStack } from './stacks/route-group';
import { portalSite } from './stacks/sites';

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

/** The workflows' state machines and their Task functions, granted what their rows declare. */
class WorkflowsStack extends NestedStack {
  readonly workflows: Workflows;
  readonly closeAbandonedWork: LiveFunction;
  constructor(
    scope: Construct,
    id: string,
    props: Omit<ConstructorParameters<typeof Workflows>[2], 'grantable' | 'deployments'> & {
      grantable: Omit<GrantableResources, 'stateMachines'>;
      deployments: LiveDeploymentsProps;
    },
  ) {
    super(scope, id);
    const grantable = grantableIn(this, { ...props.grantable, stateMachines: new Map() });
    const deployments = new LiveDeployments(this, 'Deployments', props.deployments);
    this.workflows = new Workflows(this, 'Workflows', { ...props, grantable, deployments });
    const withMachines = {
      ...grantable,
      stateMachines: new Map(
        [...this.workflows.stateMachines].map(([name, machine]) => [name, { machine, name: machine.stateMachineName }]),
      ),
    };
    for (const { fn, access } of this.workflows.taskFunctions) grantAccess(fn, access, withMachines);

    // The sweep closes what a lost execution left, so it lives beside the executions it reads.
    const maintenance = new Maintenance(this, 'Maintenance', {
      environment: serviceEnvironment({ ...props.resources, stateMachines: this.workflows.stateMachines }),
      deployments,
    });
    // It reads the executions of every workflow the stack has (the test fixtures have fewer).
    const describe = ABANDONED_WORK.access.describe.filter((name) => this.workflows.stateMachines.has(name));
    grantAccess(maintenance.closeAbandonedWork.fn, { ...ABANDONED_WORK.access, describe }, withMachines);
    this.closeAbandonedWork = maintenance.closeAbandonedWork;

    const backfill = this.workflows.stateMachines.get(BACKFILL_WORKFLOW);
    if (backfill) {
      // The root stack's id, which a nested stack sees only as a parameter (its own AWS::StackId is its own).
      const serviceStackId = new CfnParameter(this, 'ServiceStackId', { type: 'String' });
      this.setParameter('ServiceStackId', Stack.of(scope).stackId);
      startBackfillAfterEachDeploy(this, backfill, serviceStackId.valueAsString);
    }
  }
}

/** The workflow that gives every READY profile a template of the installed face model. */
const BACKFILL_WORKFLOW = 'profile-reembedding';

/**
 * After every deploy of the service (its root stack reaching CREATE_COMPLETE or UPDATE_COMPLETE, as
 * CloudFormation reports to EventBridge), the backfill starts for the face model this code carries: a
 * deploy that changed the model re-embeds every profile lacking its template, in parallel; any other
 * deploy finds nothing to do. A run stopped half-way is resumed by the next start (each step is idempotent).
 */
const startBackfillAfterEachDeploy = (scope: Construct, machine: sfn.IStateMachine, serviceStackId: string) =>
  new events.Rule(scope, 'BackfillAfterDeploy', {
    description: 'Starts the face-template backfill when a deploy of the service completes',
    eventPattern: {
      source: ['aws.cloudformation'],
      detailType: ['CloudFormation Stack Status Change'],
      resources: [serviceStackId],
      detail: { 'status-details': { status: ['CREATE_COMPLETE', 'UPDATE_COMPLETE'] } },
    },
    targets: [
      new targets.SfnStateMachine(machine, {
        input: events.RuleTargetInput.fromObject({ modelId: MODEL_ID, cursor: null }),
      }),
    ],
  });

/** The alarms that watch the whole service, and its dashboard. */
class AlarmsStack extends NestedStack {
  constructor(scope: Construct, id: string, props: ConstructorParameters<typeof Alarms>[2]) {
    super(scope, id);
    new Alarms(this, 'Alarms', props);
  }
}

export class ServiceStack extends Stack {
  /** The nested stack of each route group that has routes. */
  readonly routeGroups = new Map<RouteGroup, RouteGroupStack>();

  constructor(scope: Construct, id: string, props: ServiceStackProps = {}) {
    super(scope, id, props);
    const routes = props.routes ?? ROUTES;
    const portal = props.portal === null ? undefined : (props.portal ?? (props.routes ? undefined : PORTAL_ROUTE));
    const sites: Partial<Record<RouteGroup, GroupSite>> = portal ? { portal: portalSite(portal) } : {};

    const data = new Data(this, 'Data');
    const backends = new Backends(this, 'Backends', {
      modelRoutes: this.node.tryGetContext('modelRoutes'),
      allowRoutesBelowCost: this.node.tryGetContext('allowRoutesBelowCost'),
      modelAliases: this.node.tryGetContext('modelAliases'),
      providerBaseUrls: Object.fromEntries(
        HOSTED_PROVIDER_IDS.map((id) => [id, this.node.tryGetContext(HOSTED_PROVIDERS[id].baseUrl.context)]),
      ),
      providerWebhookUserIds: Object.fromEntries(
        HOSTED_PROVIDER_IDS.flatMap((id) => {
          const row = HOSTED_PROVIDERS[id];
          return 'queue' in row ? [[id, this.node.tryGetContext(row.queue.webhookUserId.context)]] : [];
        }),
      ),
      engineUrl: this.node.tryGetContext('engineUrl'),
      trainerUrl: this.node.tryGetContext('trainerUrl'),
      trainerCallbackUrl: this.node.tryGetContext('trainerCallbackUrl'),
      trainer: this.node.tryGetContext('trainer'),
      loraTrainerSteps: this.node.tryGetContext('loraTrainerSteps'),
      loraTrainerLearningRate: this.node.tryGetContext('loraTrainerLearningRate'),
      allowTrainingBelowCost: this.node.tryGetContext('allowTrainingBelowCost'),
      stripe: [true, 'true'].includes(this.node.tryGetContext('stripe')),
    });

    const api = new Api(this, 'Api', {
      mounts: [
        ...routes.flatMap((route) =>
          routeVersions(route).map((version) => ({ path: routePath(version, route), group: route.group })),
        ),
        ...Object.entries(sites).flatMap(([group, site]) => site.paths.map((path) => ({ path, group }))),
      ],
    });
    // The API's unexpected 5xx pages and rolls back every function's deploy.
    const topic = alarmTopic(this, 'AlarmTopic');
    const deploymentProps: LiveDeploymentsProps = {
      topic,
      rollbackAlarms: [unexpectedServerErrorsAlarm(this, api.restApi, topic)],
    };
    const deployments = new LiveDeployments(this, 'Deployments', deploymentProps);

    const callbacks = new Callbacks(this, 'Callbacks', {
      table: data.table,
      bucket: data.bucket,
      downloadTokenSecret: data.downloadTokenSecret,
      delivererEntry: props.callbackDelivererEntry,
      deployments,
    });

    const resources = {
      table: data.table,
      bucket: data.bucket,
      callbackQueue: callbacks.queue,
      downloadTokenSecret: data.downloadTokenSecret,
      backendEnvironment: backends.environment,
      budgetEnvironment: budgetEnvironment(this),
    };

    // Least privilege: each function gets what its row of the tables declares, and nothing else.
    const shared = {
      table: data.table,
      bucket: data.bucket,
      callbackQueue: callbacks.queue,
      deadLetterQueue: callbacks.deadLetterQueue,
      secrets: { downloadToken: data.downloadTokenSecret, ...backends.tokens },
    };
    const { workflows, closeAbandonedWork } = new WorkflowsStack(this, 'Workflows', {
      definitions: props.workflows ?? WORKFLOWS,
      resources,
      deployments: deploymentProps,
      grantable: shared,
    });
    const grantable: GrantableResources = {
      ...shared,
      stateMachines: new Map(
        [...workflows.stateMachines].map(([name, machine]) => [name, { machine, name: machine.stateMachineName }]),
      ),
    };
    grantAccess(callbacks.deliverer.fn, CALLBACK_QUEUE.access, grantable);

    const environment = serviceEnvironment({ ...resources, stateMachines: workflows.stateMachines });
    for (const group of ROUTE_GROUPS) {
      const groupRoutes = routes.filter((route) => route.group === group);
      if (groupRoutes.length === 0 && !sites[group]) continue;
      this.routeGroups.set(
        group,
        new RouteGroupStack(this, constructId(group), {
          routes: groupRoutes,
          handlerDir: props.apiHandlerDir ?? 'functions/api',
          site: sites[group],
          api,
          environment,
          grantable,
          deployments: deploymentProps,
        }),
      );
    }

    new AlarmsStack(this, 'Alarms', {
      topic,
      otherAlarms: deploymentProps.rollbackAlarms,
      callbackQueue: callbacks.queue,
      callbackDeadLetterQueue: callbacks.deadLetterQueue,
      restApi: api.restApi,
      stateMachines: workflows.stateMachines,
      functions: [
        ...[...this.routeGroups.values()].flatMap((group) => group.functions),
        ...workflows.taskFunctions,
        { name: 'callback deliverer', fn: callbacks.deliverer.fn },
        { name: 'abandoned-work sweep', fn: closeAbandonedWork.fn },
      ].map(({ name, fn }) => ({ name, fn })),
    });
  }
}
