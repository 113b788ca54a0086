/**
 * The names both homes must agree on, each written once: the environment variables that the stack
 * (lib/constructs/) and the local runtime (bin/local/runtime.ts) set, and that functions/shared/config.ts
 * reads. A name changed here changes in all three.
 */
export const ENV = {
  tableName: 'SERVICE_TABLE_NAME',
  bucketName: 'SERVICE_BUCKET_NAME',
  callbackQueueUrl: 'CALLBACK_QUEUE_URL',
  callbackDeadLetterQueueUrl: 'CALLBACK_DLQ_URL',
  downloadTokenSecretArn: 'DOWNLOAD_TOKEN_SECRET_ARN',
  logLevel: 'LOG_LEVEL',
  nodeOptions: 'NODE_OPTIONS',
  syncBudgetSeconds: 'SYNC_BUDGET_SECONDS',
  asyncBudgetSeconds: 'ASYNC_BUDGET_SECONDS',
} as const;

/** Where the engine and the trainer run (lib/constructs/backends.ts). */
export const BACKEND_ENV = {
  engine: 'ENGINE',
  engineUrl: 'ENGINE_URL',
  engineTokenSecretArn: 'ENGINE_TOKEN_SECRET_ARN',
  trainer: 'TRAINER',
  trainerUrl: 'TRAINER_URL',
  trainerTokenSecretArn: 'TRAINER_TOKEN_SECRET_ARN',
  trainerCallbackUrl: 'TRAINER_CALLBACK_URL',
} as const;

/** Workflow (functions/workflows/definitions.ts) → the variable holding its state machine's ARN. */
export const STATE_MACHINE_ARN_ENV = {
  'image-job': 'IMAGE_JOB_STATE_MACHINE_ARN',
  'profile-training': 'PROFILE_TRAINING_STATE_MACHINE_ARN',
} as const;

export type WorkflowName = keyof typeof STATE_MACHINE_ARN_ENV;
