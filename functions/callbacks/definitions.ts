/**
 * The callback queue as both homes create it. The deliverer backs off with ChangeMessageVisibility,
 * counts attempts from its own records and moves an exhausted message to the DLQ itself. The redrive
 * policy is only the safety net for a deliverer that keeps crashing, sized well above the attempt
 * budget so it never cuts the deliverer's schedule short (the local emulator also counts visibility
 * changes as receives).
 */
import type { Access } from '../deployment/access';

export const CALLBACK_QUEUE = {
  name: 'callbacks',
  deadLetterName: 'callbacks-dlq',
  /**
   * Each callback POST times out after 10 s and the deliverer sends a batch concurrently; an automatic
   * charge makes two Stripe calls, each at most STRIPE_CALL_WORST_CASE_MS (adapters/stripe/budget.ts), and
   * must finish them with a margin (test/unit/adapters/stripe-budget.test.ts).
   */
  delivererTimeoutSeconds: 60,
  /** Six times the deliverer's timeout, as AWS advises for a queue that feeds a function. */
  visibilityTimeoutSeconds: 6 * 60,
  maxReceiveCount: 20,
  handler: 'functions/callbacks/deliver-callback',
  /**
   * Attempts recorded and counted, the account's webhook secret read (or made), exhausted messages
   * dead-lettered; consuming comes with the event source. It also runs auto-recharge's charges (Stripe's
   * secret key; docs/billing.md) and queues the account event a decline sends.
   */
  access: { table: 'write', queues: ['callbacks', 'deadLetter'], secrets: ['stripeSecretKey'] } satisfies Access,
  batchSize: 10,
} as const;
