/**
 * Business metrics, as the use cases see them: a named count or duration with a few dimensions. On AWS
 * they are CloudWatch metrics in the embedded metric format (functions/adapters/metrics.ts); the
 * dashboard and the alarms read them (lib/constructs/alarms.ts).
 */
export type Dimensions = Readonly<Record<string, string>>;

export interface Meter {
  count(name: MetricName, dimensions?: Dimensions, value?: number): void;
  milliseconds(name: MetricName, ms: number, dimensions?: Dimensions): void;
}

/** Every metric the service emits, named once (the stack's dashboard and alarms import these). */
export const METRICS = {
  submits: 'Submits',
  jobsSucceeded: 'JobsSucceeded',
  jobsFailed: 'JobsFailed',
  reservedMicros: 'ReservedMicros',
  settledMicros: 'SettledMicros',
  releasedMicros: 'ReleasedMicros',
  engineLatency: 'EngineLatency',
  callbackAttempts: 'CallbackAttempts',
  callbackSuccesses: 'CallbackSuccesses',
  callbackDeadLetters: 'CallbackDeadLetters',
  trainingsReady: 'TrainingsReady',
  trainingsFailed: 'TrainingsFailed',
  /** A 500 the spec requires (the engine failed; INTERNAL_ERROR, refunded). */
  engineFailureAnswers: 'EngineFailureAnswers',
  /** A 500 nobody meant: an error the code did not expect. */
  unexpectedServerErrors: 'UnexpectedServerErrors',
  /** Micro-USD a run's price exceeded its reservation by: not charged, the operator's loss (alarmed). */
  unbilledMicros: 'UnbilledMicros',
  /** A token-metered run whose provider reported no usage, settled at its reservation. */
  usageMissing: 'UsageMissing',
  /** A READY profile's template of the current face model made inside a request (profiles/templates.ts). */
  templatesMadeOnDemand: 'TemplatesMadeOnDemand',
  templateOnDemandLatency: 'TemplateOnDemandLatency',
  /** A candidate served without a template of the current face model: sent, not recognised, not billed. */
  subjectsNotChecked: 'SubjectsNotChecked',
  /** Profiles the backfill gave a template of the current face model, and those whose photos no longer could. */
  profilesReembedded: 'ProfilesReembedded',
  profilesReembedFailed: 'ProfilesReembedFailed',
  /**
   * Money from Stripe that needs a person (alarmed): an event in another currency (recorded, not applied),
   * or an automatic charge the sweep found unfinished (its message lost or dead-lettered). Dimension `kind`.
   */
  stripeUnhandled: 'StripeUnhandled',
} as const;
export type MetricName = (typeof METRICS)[keyof typeof METRICS];

export const METRICS_NAMESPACE = 'IdentityImageService';

export const noMeter: Meter = { count: () => undefined, milliseconds: () => undefined };
