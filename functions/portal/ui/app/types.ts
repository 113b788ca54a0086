/**
 * The JSON that /portal/api answers (functions/portal/handler.ts), as far as this page reads it. The
 * server builds these bodies in the domain (statement.ts, accounts.ts, jobs/status.ts,
 * jobs/deliveries.ts, profiles.ts); they are restated here because the browser build cannot import
 * server modules, and test/integration/portal-browser.test.ts drives the page against the real answers.
 */

export interface Money {
  usd: string;
  micro_usd: number;
}

export interface Session {
  email: string;
  account_id: string;
  csrf_token: string;
  expires_at: string;
}

export interface Account {
  balance: Money;
  default_model_version: string;
  limits: { requests_per_minute: number; running_jobs: number };
}

export interface SpendDay {
  date: string;
  spent: Money;
  credited: Money;
}

export interface Spend {
  days: SpendDay[];
  truncated: boolean;
}

export interface LedgerEntry {
  created_at: string;
  kind: string;
  amount: Money;
  balance_after: Money;
  job_id: string | null;
  profile_id: string | null;
  note: string | null;
}

export interface LedgerPage {
  entries: LedgerEntry[];
  next_cursor: string | null;
}

export interface Key {
  key_id: string;
  name: string | null;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface IssuedKey {
  key_id: string;
  name: string;
  scopes: string[];
  api_key: string;
}

/** A scope the key page offers: what it allows, and whether new keys have it unless unticked. */
export interface ScopeChoice {
  scope: string;
  meaning: string;
  default: boolean;
}

/** GET /portal/api/billing/settings: the same body as GET /v2/service/account/billing. */
export interface BillingSettings {
  auto_recharge: {
    enabled: boolean;
    threshold: string | null;
    amount: string | null;
    card_saved: boolean;
    disabled_reason: string | null;
    charged_today: string;
    daily_max: string;
  };
  low_balance_threshold: string | null;
  webhook_url: string | null;
}

export interface BillingSettingsUpdate {
  auto_recharge?: { enabled: boolean; threshold: string; amount: string };
}

export interface Job {
  job_id: string;
  status: string;
  operation: string;
  created_at: string;
  completed_at: string | null;
  result: { download_urls: string[] } | null;
  cost: { reserved: string; final: string | null } | null;
}

export interface JobPage {
  jobs: Job[];
  next_cursor: string | null;
}

/** Why a delivery got no answer: `timeout` or `network`. */
type NoAnswer = 'timeout' | 'network';

export interface DeliveryAttempt {
  delivery_id: string;
  attempt: number;
  at: string;
  response_status: number | null;
  error: NoAnswer | null;
  latency_ms: number;
  last: boolean;
}

export interface JobDeliveries {
  callback_url: string | null;
  attempts: DeliveryAttempt[];
}

export interface Redelivery {
  delivery_id: string;
  callback_url: string;
}

export interface WebhookSecret {
  webhook_signing_secret: string;
  previous_secret_expires_at?: string;
}

export interface WebhookTest {
  delivery_id: string;
  delivered: boolean;
  response_status: number | null;
  error: NoAnswer | null;
  latency_ms: number;
}

export interface Profile {
  profile_id: string;
  status: string;
  message: string;
  tag: string | null;
  training_tier: 'standard' | 'fast';
  model_version: string;
  has_picture: boolean;
  created_at: string;
}

/** GET /portal/api/billing (functions/domain/billing/top-ups.ts, billingPage). */
export interface Billing {
  balance: Money;
  debt: Money;
  top_ups_enabled: boolean;
  presets: string[];
  min_amount: string;
  max_amount: string;
  low_balance_threshold: Money | null;
  auto_recharge: boolean;
}

export interface TopUp {
  top_up_id: string;
  status: 'pending' | 'completed' | 'expired' | 'failed';
  amount: string;
  checkout_url: string | null;
  created_at: string;
  completed_at: string | null;
  credited: Money | null;
  refunded: Money;
}

export interface TopUpPage {
  top_ups: TopUp[];
  next_cursor: string | null;
}

export interface TopUpCreated {
  top_up_id: string;
  checkout_url: string;
  amount: string;
  status: 'pending';
}
