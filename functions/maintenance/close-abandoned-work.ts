import { findOpenWork, findStartedRecharges } from '../adapters/dynamo/open-work';
import { rechargeSweepDeps } from '../composition/account/billing';
import { log } from '../composition/core';
import { table } from '../composition/data';
import { abandonedWorkDeps } from '../composition/workflows/maintenance';
import { finishStartedRecharges } from '../domain/billing/auto-billing';
import { closeAbandonedWork } from '../domain/workflow/abandoned';

/**
 * Scheduled (EventBridge): closes the jobs and trainings whose execution is lost, releasing their money,
 * and finishes the automatic charges whose message was lost or dead-lettered (docs/billing.md).
 */
export const handler = async () => {
  const open = await findOpenWork(table());
  const closed = await closeAbandonedWork(abandonedWorkDeps(), open);
  log().info('abandoned work closed', {
    open: open.length,
    closed_jobs: closed.jobs,
    closed_profiles: closed.profiles,
  });
  const recharges = await finishStartedRecharges(rechargeSweepDeps(), await findStartedRecharges(table()));
  if (Object.keys(recharges).length > 0) log().info('unfinished automatic charges', { recharges });
  return { ...closed, recharges };
};
