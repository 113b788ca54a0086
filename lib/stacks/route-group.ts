/**
 * One resource group of the API (images, jobs, profiles, account, providers, portal) as a nested stack:
 * a function per route, each behind its `live` alias with its deployment group and errors alarm, one log
 * group for them all, and the routes mounted on the root stack's API. Every resource a route costs is
 * here, so a group's stack grows by a fixed amount per route (docs/deploy-aws.md, "What a route costs").
 */
import * as path from 'node:path';
import { NestedStack, type NestedStackProps } from 'aws-cdk-lib';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { type Access, API_KEY_ACCESS, union } from '../../functions/deployment/access';
import { type RouteDefinition, routePath, routeVersions } from '../../functions/deployment/routes';
import { type Api, BUFFERED_TIMEOUT, Mounter, STREAM_TIMEOUT } from '../constructs/api';
import {
  type BuildSteps,
  constructId,
  LOG_RETENTION,
  type ServiceFunctionProps,
  serviceFunction,
} from '../constructs/function-defaults';
import { type GrantableResources, grantAccess } from '../constructs/grants';
import { LiveDeployments, type LiveDeploymentsProps, type LiveFunction } from '../constructs/live';
import { grantableIn } from './imports';

/** A function the group mounts on paths of its own (the developer portal), outside the route table. */
export interface GroupSite {
  readonly handler: string;
  readonly paths: readonly string[];
  /** Its readable name (alarms, the dashboard) and its function's description. */
  readonly name: string;
  readonly description: string;
  readonly access: Access;
  readonly buildSteps?: BuildSteps;
}

export interface RouteGroupStackProps extends NestedStackProps {
  readonly routes: readonly RouteDefinition[];
  /** Where the route handler modules live, relative to the repository root. */
  readonly handlerDir: string;
  readonly site?: GroupSite;
  readonly api: Api;
  readonly environment: Record<string, string>;
  readonly grantable: GrantableResources;
  readonly deployments: LiveDeploymentsProps;
}

/** A function of the stack, by a readable name (`GET /jobs/{job_id}`), with the route it serves. */
export interface NamedFunction extends LiveFunction {
  readonly name: string;
  readonly route?: RouteDefinition;
}

export class RouteGroupStack extends NestedStack {
  readonly functions: NamedFunction[] = [];

  constructor(scope: Construct, id: string, props: RouteGroupStackProps) {
    super(scope, id, props);
    const logGroup = new logs.LogGroup(this, 'Logs', { retention: LOG_RETENTION });
    const deployments = new LiveDeployments(this, 'Deployments', props.deployments);
    const mounter = new Mounter(this, props.api);
    const grantable = grantableIn(this, props.grantable);
    const publish = (
      functionId: string,
      name: string,
      functionProps: Omit<ServiceFunctionProps, 'environment' | 'logGroup'>,
      access: Access,
    ) => {
      const fn = serviceFunction(this, functionId, { ...functionProps, environment: props.environment, logGroup });
      grantAccess(fn, access, grantable);
      return deployments.publish(fn, name);
    };

    for (const route of props.routes) {
      const name = `${route.method} ${route.path}`;
      const live = publish(
        constructId(route.method, route.path),
        name,
        {
          entry: path.posix.join(props.handlerDir, route.handler),
          description: `${route.method} /{${routeVersions(route).join(',')}}/service${route.path}`,
          timeout: route.stream ? STREAM_TIMEOUT : BUFFERED_TIMEOUT,
          images: route.images,
          memoryMb: route.memoryMb,
          files: route.files,
        },
        route.auth === 'none' ? route.access : union(API_KEY_ACCESS, route.access),
      );
      for (const version of routeVersions(route))
        mounter.mount(route.method, routePath(version, route), live.alias, {
          stream: route.stream,
          timeout: route.stream ? STREAM_TIMEOUT : undefined,
        });
      this.functions.push({ ...live, name, route });
    }

    if (props.site) {
      const { site } = props;
      const live = publish(
        constructId(site.name),
        site.name,
        { entry: site.handler, description: site.description, timeout: BUFFERED_TIMEOUT, buildSteps: site.buildSteps },
        site.access,
      );
      for (const sitePath of site.paths) mounter.mount('ANY', sitePath, live.alias);
      this.functions.push({ ...live, name: site.name });
    }
  }
}
