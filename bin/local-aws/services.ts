/**
 * Every dependency of the service in one object, for the local tools only: the local runtime, the admin
 * CLI, tests and benchmarks, which run in one process and look at everything. No function imports this
 * (a handler imports the one composition module it calls, functions/composition/), so it may pull in
 * sharp freely. Getters, so that what it shows is what the handlers use after `resetComposition`.
 */
import * as core from '../../functions/composition/core';
import * as data from '../../functions/composition/data';
import { imageDeps } from '../../functions/composition/images/images';
import { profileDeps } from '../../functions/composition/profiles/profiles';
import { sqs } from '../../functions/composition/queues';
import { objects } from '../../functions/composition/storage';
import { engineStepDeps } from '../../functions/composition/workflows/image-engine';
import { jobStepDeps } from '../../functions/composition/workflows/job-steps';
import { photoTrainingDeps } from '../../functions/composition/workflows/photo-training';

const all = {
  get config() {
    return core.settings();
  },
  clock: core.clock,
  newId: core.newId,
  get log() {
    return core.log();
  },
  get table() {
    return data.table();
  },
  get accounts() {
    return data.accounts();
  },
  get ledger() {
    return data.ledger();
  },
  get profiles() {
    return data.profiles();
  },
  get jobs() {
    return data.jobs();
  },
  get objects() {
    return objects();
  },
  get sqs() {
    return sqs();
  },
  get images() {
    return imageDeps();
  },
  /** The image-job steps; RunEngine's dependencies inherit from this object. */
  get workflow() {
    return jobStepDeps();
  },
  get engineStep() {
    return engineStepDeps();
  },
  get profileDeps() {
    return profileDeps();
  },
  get training() {
    return photoTrainingDeps();
  },
};

export type Services = typeof all;

export const services = (): Services => all;
