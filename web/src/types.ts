/** Shapes of the admin API's `data` (docs/api.md, Admin API, and the dashboard's own endpoints). */

export interface Session {
  email: string;
  csrf_token: string;
  created_at: string;
  idle_expires_at: string;
  expires_at: string;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

export interface Merchant {
  id: string;
  name: string;
  active: boolean;
  webhook_url: string | null;
  has_webhook_signing_secret: boolean;
  provider: string | null;
  created_at: string;
  updated_at: string;
  /** Only in the response that generated it. */
  webhook_signing_secret?: string;
}

export interface ApiKey {
  id: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
}

export interface IssuedApiKey {
  id: string;
  key: string;
  prefix: string;
  created_at: string;
}

export const PAYMENT_STATUSES = ['pending', 'paid', 'expired', 'cancelled', 'failed', 'refunded'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export interface Payment {
  id: string;
  merchantId: string;
  status: PaymentStatus;
  amount: number;
  currency: string;
  description: string | null;
  externalId: string;
  recipient: { document: string; name: string };
  pix: { txid: string; copyPaste: string; qrCodePng: string; expiresAt: string | null };
  provider: string;
  providerPaymentId: string | null;
  createdAt: string;
  updatedAt: string;
  paidAt: string | null;
}

export interface PaymentEvent {
  id: string;
  type: string;
  source: string;
  outcome: string;
  from_status: string | null;
  to_status: string | null;
  amount: number | null;
  forward: string;
  note: string | null;
  provider_event_id: string;
  request_id: string;
  created_at: string;
}

export interface DeliveryAttempt {
  attempt: number;
  attempted_at: string;
  url: string | null;
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: string;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
  created_at: string;
  attempts?: DeliveryAttempt[];
}

/** A delivery as `GET /admin/api/webhook-deliveries` lists it: `attempts` is a count there. */
export interface ListedDelivery extends Omit<Delivery, 'attempts' | 'attempt_count'> {
  attempts: number;
  merchant_id: string;
  merchant_name: string;
  payment_id: string;
}

export interface PaymentDetail extends Payment {
  events: PaymentEvent[];
  deliveries: Delivery[];
}

export interface PeriodStats {
  payments: number;
  paid_count: number;
  paid_volume: number;
}

export interface Stats {
  generated_at: string;
  today_start: string;
  week_start: string;
  today: PeriodStats;
  last_7_days: PeriodStats;
  daily: (PeriodStats & { day_start: string })[];
  by_status: Record<PaymentStatus, number>;
  deliveries: { failed: number; pending: number };
  provider_window_hours: number;
  providers: { provider: string; payments: number; failed_attempts: number; error_rate: number | null }[];
}
