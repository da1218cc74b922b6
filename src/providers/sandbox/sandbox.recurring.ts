import { type Account, type InboundCallback, type SimulatedEventResult, UpstreamError, WebhookAuthError } from '../provider-adapter';
import type {
  CreateRecurrenceRequest,
  CreateRecurringChargeRequest,
  ProviderRecurrence,
  ProviderRecurringCharge,
  RecurrenceLookup,
  RecurringChargeLookup,
  RecurringReport,
  RecurringProvider,
  RecurringSimulation,
} from '../recurring';
import type { OutboundAnswer } from '../transport/transport';
import type { SandboxCredentials } from './credentials';
import { orThrow, type SandboxCall, type SendSandboxCall } from './flows/api-call';
import { assertSigned } from './flows/callback';
import { cancelRecurrenceCall, createRecurrenceCall, parseRecurrence, parseRecurringSimulation, readRecurrenceCall, recurringSimulationCall } from './flows/recurrence';
import { chargeEventId, recurrenceEventId, recurringCallbackEntries } from './flows/recurring-callback';
import { cancelRecurringChargeCall, createRecurringChargeCall, parseRecurringCharge, readRecurringChargeCall, retryRecurringChargeCall } from './flows/recurring-charge';

export interface SandboxRecurringOptions {
  isProduction: boolean;
  /**
   * The secret to have this account's recurrences and charges signed with, sent with each creation
   * as the adapter's createCharge does: a stored account's own; undefined for the built-in account,
   * whose are signed with the secret the simulated PSP was mounted with.
   */
  webhookSecretFor(account: Account<SandboxCredentials>): string | undefined;
}

/**
 * Pix Automático through the simulated PSP (docs/sandbox.md, Recurrences): SandboxAdapter.recurring.
 * The flows (flows/recurrence.ts, flows/recurring-charge.ts, flows/recurring-callback.ts) build each
 * request and parse each answer; `send` is the adapter's. Refusals are UpstreamError `http` with the
 * simulated PSP's status and code (a due date outside the lead time: 400 `DUE_DATE_REFUSED`).
 */
export class SandboxRecurring implements RecurringProvider<SandboxCredentials> {
  constructor(
    private readonly send: SendSandboxCall,
    private readonly options: SandboxRecurringOptions,
  ) {}

  async createRecurrence(account: Account<SandboxCredentials>, request: CreateRecurrenceRequest): Promise<ProviderRecurrence> {
    return this.exchange(createRecurrenceCall(request, this.options.webhookSecretFor(account)), parseRecurrence);
  }

  async getRecurrence(_account: Account<SandboxCredentials>, ref: RecurrenceLookup): Promise<ProviderRecurrence> {
    return this.exchange(readRecurrenceCall(ref), parseRecurrence);
  }

  async cancelRecurrence(_account: Account<SandboxCredentials>, ref: RecurrenceLookup): Promise<ProviderRecurrence> {
    return this.exchange(cancelRecurrenceCall(ref), parseRecurrence);
  }

  async createCharge(account: Account<SandboxCredentials>, request: CreateRecurringChargeRequest): Promise<ProviderRecurringCharge> {
    return this.exchange(createRecurringChargeCall(request, this.options.webhookSecretFor(account)), parseRecurringCharge);
  }

  async getCharge(_account: Account<SandboxCredentials>, ref: RecurringChargeLookup): Promise<ProviderRecurringCharge> {
    return this.exchange(readRecurringChargeCall(ref), parseRecurringCharge);
  }

  async cancelCharge(_account: Account<SandboxCredentials>, ref: RecurringChargeLookup): Promise<ProviderRecurringCharge> {
    return this.exchange(cancelRecurringChargeCall(ref), parseRecurringCharge);
  }

  async retryCharge(_account: Account<SandboxCredentials>, ref: RecurringChargeLookup, date: string): Promise<ProviderRecurringCharge> {
    return this.exchange(retryRecurringChargeCall(ref, date), parseRecurringCharge);
  }

  /**
   * A `/rec` or `/cobr` callback: signed as payments' callbacks are (and unsigned accepted only
   * outside production, for an account without a secret), then each entry read back from the
   * simulated PSP, in order, up to the first it does not know; nothing confirmed is a
   * WebhookAuthError. The report is what the read-back says, never what the body claims.
   */
  async receiveCallback(account: Account<SandboxCredentials>, request: InboundCallback): Promise<RecurringReport[]> {
    assertSigned(request, account.credentials.webhookSecret?.reveal(), this.options.isProduction);
    const entries = recurringCallbackEntries(request);
    const reports: RecurringReport[] = [];
    for (const entry of entries) {
      try {
        if (entry.kind === 'recurrence') {
          const recurrence = await this.getRecurrence(account, { providerRecurrenceId: entry.id });
          reports.push({ kind: 'recurrence', eventId: recurrenceEventId(recurrence), recurrence });
        } else {
          const charge = await this.getCharge(account, { txid: entry.id });
          reports.push({ kind: 'charge', eventId: chargeEventId(charge), charge });
        }
      } catch (error) {
        // An id the simulated PSP does not know confirms nothing, and nothing after it is read (docs/sandbox.md, Recurrences).
        if (error instanceof UpstreamError && error.upstreamStatus === 404) break;
        throw error;
      }
    }
    if (reports.length === 0) throw new WebhookAuthError('The sandbox confirmed none of the callback entries.');
    return reports;
  }

  /** Makes the payer or the payer's bank act; the simulated PSP posts its callback and answers after that post. */
  async simulate(_account: Account<SandboxCredentials>, request: RecurringSimulation): Promise<SimulatedEventResult> {
    return orThrow(parseRecurringSimulation(request, await this.send(recurringSimulationCall(request))));
  }

  private async exchange<T>(call: SandboxCall, parse: (call: SandboxCall, response: OutboundAnswer) => T | UpstreamError): Promise<T> {
    return orThrow(parse(call, await this.send(call)));
  }
}
