/**
 * Maintenance: a scheduled function that closes jobs and trainings whose workflow execution is lost, so
 * that no reservation stays held (functions/domain/workflow/abandoned.ts). It scans the table, so it runs
 * every MAINTENANCE_INTERVAL, not more often.
 */
import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import { ABANDONED_WORK } from '../../functions/maintenance/definitions';
import { serviceFunction } from './function-defaults';
import type { LiveDeployments, LiveFunction } from './live';

export const MAINTENANCE_INTERVAL = Duration.minutes(30);

export interface MaintenanceProps {
  readonly environment: Record<string, string>;
  readonly deployments: LiveDeployments;
}

export class Maintenance extends Construct {
  readonly closeAbandonedWork: LiveFunction;

  constructor(scope: Construct, id: string, props: MaintenanceProps) {
    super(scope, id);
    const fn = serviceFunction(this, 'CloseAbandonedWork', {
      entry: ABANDONED_WORK.handler,
      description: 'Closes jobs and trainings whose workflow execution is lost, releasing their reservations',
      timeout: Duration.minutes(5),
      environment: props.environment,
    });
    this.closeAbandonedWork = props.deployments.publish(fn, 'abandoned-work sweep');
    new events.Rule(this, 'Schedule', {
      description: 'Closes abandoned work (no reservation stays held by a lost execution)',
      schedule: events.Schedule.rate(MAINTENANCE_INTERVAL),
      targets: [new targets.LambdaFunction(this.closeAbandonedWork.alias, { retryAttempts: 2 })],
    });
  }
}
