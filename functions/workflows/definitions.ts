/**
 * The state machines: each ASL file under `statemachines/` and, for every `${Substitution}` a Task
 * names as its Resource (or, for a `lambda:invoke.waitForTaskToken` Task, as its
 * `Parameters.FunctionName`), the handler module that runs it. The CDK stack turns each binding into a
 * function and a definition substitution; the local runtime binds the same Task to the same handler
 * in process. A Task without a binding is an error in both homes.
 */
import type { Access } from '../deployment/access';
import type { WorkflowName } from '../deployment/env-names';
import { ALL_PROVIDER_SECRETS, QUEUED_PROVIDER_SECRETS, TRAINER_PROVIDER_SECRETS } from '../deployment/providers';

export interface WorkflowDefinition {
  /** ASL file, relative to the repository root. */
  file: string;
  /** Substitution variable → handler module (relative to the repository root, exporting `handler`). */
  tasks: Readonly<Record<string, { handler: string; images?: boolean; timeoutSeconds?: number; access: Access }>>;
}

export const WORKFLOWS: Readonly<Record<WorkflowName, WorkflowDefinition>> = {
  'image-job': {
    file: 'statemachines/image-job.asl.json',
    tasks: {
      MarkRunningFunctionArn: { handler: 'functions/workflows/image-job/mark-running', access: { table: 'write' } },
      RunEngineFunctionArn: {
        handler: 'functions/workflows/image-job/run-engine',
        images: true,
        timeoutSeconds: 900,
        // `update`: the job's progress, a queued provider's ticket and the step's outcome (domain/workflow/rounds.ts,
        // steps.ts).
        // `profiles`: the candidates' reference crops, read (the sandbox, inline providers) or presigned (an
        // engine backend, fal); `inputs` written: images shared by presigned URL with fal. The keys of the
        // routed providers.
        // `downloadToken`: the link secret signs the job's token in the webhook URL fal reports to (reports.ts).
        access: {
          table: 'read',
          update: true,
          bucket: { read: ['inputs', 'profiles'], write: ['inputs', 'outputs'] },
          secrets: ['engineToken', 'downloadToken', ...ALL_PROVIDER_SECRETS],
        },
      },
      // Invoked by the `lambda:invoke.waitForTaskToken` Task AwaitEngine: stores the token fal's webhook resumes
      // (the job's record), and on a retry reads fal's status (the queued providers' keys). No image work.
      AwaitEngineFunctionArn: {
        handler: 'functions/workflows/image-job/await-engine',
        timeoutSeconds: 60,
        access: { table: 'write', secrets: QUEUED_PROVIDER_SECRETS },
      },
      // After the settle: the low-balance notice and an auto-recharge are queued (docs/billing.md).
      SettleChargeFunctionArn: {
        handler: 'functions/workflows/image-job/settle-charge',
        access: { table: 'write', queues: ['callbacks'] },
      },
      // The keys of the queued providers: a released job's ticket is asked to stop (steps.ts release).
      ReleaseChargeFunctionArn: {
        handler: 'functions/workflows/image-job/release-charge',
        access: { table: 'write', secrets: QUEUED_PROVIDER_SECRETS },
      },
      QueueCallbackFunctionArn: {
        handler: 'functions/workflows/image-job/queue-callback',
        access: { table: 'read', queues: ['callbacks'], secrets: ['downloadToken'] },
      },
    },
  },
  'profile-training': {
    file: 'statemachines/profile-training.asl.json',
    tasks: {
      ValidatePhotosFunctionArn: {
        handler: 'functions/workflows/profile-training/validate-photos',
        images: true,
        timeoutSeconds: 900,
        // Reads `upload:` photos from the account's direct uploads.
        access: { table: 'write', bucket: { read: ['uploads'], write: ['profiles'], delete: ['profiles'] } },
      },
      StartTrainingFunctionArn: {
        handler: 'functions/workflows/profile-training/start-training',
        access: { table: 'write' },
      },
      // The face template was built in ValidatePhotos: completing is a settlement and a callback, no image work.
      CompleteTrainingFunctionArn: {
        handler: 'functions/workflows/profile-training/complete-training',
        access: { table: 'write', queues: ['callbacks'] },
      },
      // Invoked by a `lambda:invoke.waitForTaskToken` Task (Parameters.FunctionName); its retries of the backend fit in 120 s.
      // The backend fetches the photos through URLs this function presigns.
      RequestTrainingFunctionArn: {
        handler: 'functions/workflows/profile-training/request-training',
        timeoutSeconds: 120,
        access: { table: 'write', bucket: { read: ['profiles'] }, secrets: ['trainerToken'] },
      },
      AcceptTrainingFunctionArn: {
        handler: 'functions/workflows/profile-training/accept-training',
        access: { table: 'write', queues: ['callbacks'] },
      },
      // TRAINER=fal (Full Train): the zip of captioned photos stored and presigned for fal, the trainer asked with a
      // webhook signed by the link secret (downloadToken) and fal's key.
      SubmitLoraTrainingFunctionArn: {
        handler: 'functions/workflows/profile-training/submit-lora-training',
        timeoutSeconds: 300,
        access: {
          table: 'write',
          bucket: { read: ['profiles'], write: ['profiles'] },
          secrets: ['downloadToken', ...TRAINER_PROVIDER_SECRETS],
        },
      },
      // Invoked by the `lambda:invoke.waitForTaskToken` Task AwaitLoraTraining: stores the token fal's webhook resumes.
      AwaitLoraTrainingFunctionArn: {
        handler: 'functions/workflows/profile-training/await-lora-training',
        timeoutSeconds: 60,
        access: { table: 'write' },
      },
      // fal's status and result; the LoRA downloaded from fal's media hosts into the bucket; fal's copies deleted.
      CheckLoraTrainingFunctionArn: {
        handler: 'functions/workflows/profile-training/check-lora-training',
        timeoutSeconds: 900,
        access: {
          table: 'write',
          bucket: { write: ['profiles'] },
          queues: ['callbacks'],
          secrets: TRAINER_PROVIDER_SECRETS,
        },
      },
      FailTrainingFunctionArn: {
        handler: 'functions/workflows/profile-training/fail-training',
        access: { table: 'write', queues: ['callbacks'] },
      },
    },
  },
  // The backfill after a change of face model (functions/domain/profiles/reembed.ts): started by the deploy
  // (lib/constructs/workflows.ts) and, locally, by the runtime's start.
  'profile-reembedding': {
    file: 'statemachines/profile-reembedding.asl.json',
    tasks: {
      ListStaleProfilesFunctionArn: {
        handler: 'functions/workflows/profile-reembedding/list-stale-profiles',
        // The progress record's start, and a Scan page of the table.
        access: { table: 'write', scan: true },
      },
      ReembedProfileFunctionArn: {
        handler: 'functions/workflows/profile-reembedding/reembed-profile',
        images: true,
        timeoutSeconds: 900,
        // Reads the stored photos; a profile trained before faces gets its crops, picture and template.json.
        access: { table: 'write', bucket: { read: ['profiles'], write: ['profiles'] } },
      },
      FinishBackfillFunctionArn: {
        handler: 'functions/workflows/profile-reembedding/finish-backfill',
        access: { table: 'write' },
      },
    },
  },
};
