import { findOpenWork } from '../adapters/dynamo/open-work';
import { log } from '../composition/core';
import { table } from '../composition/data';
import { abandonedWorkDeps } from '../composition/workflows/maintenance';
import { closeAbandonedWork } from '../domain/workflow/abandoned';

/** Scheduled (EventBridge): closes the jobs and trainings whose execution is lost, releasing their money. */
export const handler = async () => {
  const open = await findOpenWork(table());
  const closed = await closeAbandonedWork(abandonedWorkDeps(), open);
  log().info('abandoned work closed', {
    open: open.length,
    closed_jobs: closed.jobs,
    closed_profiles: closed.profiles,
  });
  return closed;
};
