/**
 * The callback queue as both homes create it. The deliverer backs off with ChangeMessageVisibility and
 * gives up itself after the last attempt; the redrive policy is the safety net for a deliverer that
 * keeps crashing, sized so it never cuts the deliverer's own schedule short.
 */
export const CALLBACK_QUEUE = {
  name: 'callbacks',
  deadLetterName: 'callbacks-dlq',
  visibilityTimeoutSeconds: 60,
  maxReceiveCount: 10,
  handler: 'functions/callbacks/deliver-callback',
  batchSize: 10,
} as const;
