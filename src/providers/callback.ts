import type { PaymentEventType } from '../domain/provider-event';

/** A callback as it reached the gateway: enough for any scheme (signatures over the URL, the query, the raw bytes). */
export interface InboundCallback {
  method: string;
  /** The path after `/webhooks/<provider>/<account>` (e.g. `/pix`), '' when none. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
}

export interface SimulatedEventRequest {
  event: PaymentEventType;
  /** The amount the event reports, when it should differ from the charge's (tests of mismatches). */
  amountCents?: number;
}

/** What a test PSP did when told to make something happen: the callback it then sent, and the subject as it now holds it. */
export interface SimulatedEventResult {
  /** The PSP's id of the callback it sent. */
  eventId: string;
  /** Whether the gateway answered the callback with a 2xx. */
  delivered: boolean;
  /** The gateway's HTTP status for the callback, null when it could not be reached. */
  status: number | null;
  /** The charge as the PSP holds it after the event. */
  charge: Record<string, unknown>;
}
