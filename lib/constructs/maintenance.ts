/**
 * Maintenance: a scheduled function that closes jobs and trainings whose workflow execution is lost, so
 * that no reservation stays held (functions/domain/workflow/abandoned.ts). It scans the table, so it runs
 * every MAINTENANCE_INTERVAL, not more often.
 */
import { Duration } from 'aws-cdk-lib';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Construct } from 'constructs';
import { ABANDONED_WORK } from '../../functions/maintenance/definitions';
import { serviceFunction } from './function-defaults';

export const MAINTENANCE_INTERVAL = Duration.minutes(30);

export interface MaintenanceProps {
  readonly environment: Record<string, string>;
}

export class Maintenance extends Construct {
  readonly closeAbandonedWork: NodejsFunction;

  constructor(scope: Construct, id: string, props: MaintenanceProps) {
    super(scope, id);
    this.closeAbandonedWork = serviceFunction(this, 'CloseAbandonedWork', {
      entry: ABANDONED_WORK.handler,
      description: 'Closes jobs and trainings whose workflow execution is lost, releasing their reservations',
      timeout: Duration.minutes(5),
      environment: props.environment,
    });
    new events.Rule(this, 'Schedule', {
      description: 'Closes abandoned work (no reservation stays held by a lost execution)',
      schedule: events.Schedule.rate(MAINTENANCE_INTERVAL),
      targets: [new targets.LambdaFunction(this.closeAbandonedWork, { retryAttempts: 2 })],
    });
  }
}
