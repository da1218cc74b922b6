import type { LoggerService } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { CredentialsError, ProviderFailureCode, UpstreamError, WebhookAuthError, WebhookParseError } from './provider-adapter';

/** Why an account cannot be acted through, before any PSP is asked. */
export type AccountUnusableReason =
  /** Its stored credentials no longer parse (an expired certificate) or cannot be opened with this SECRETS_KEY. */
  | 'credentials'
  /** A homologation account in production without ALLOW_HOMOLOGATION_ACCOUNTS. */
  | 'homologation_in_production'
  /** Its provider does not run on this gateway (or has no built-in account). */
  | 'provider_unavailable';

/** An account the core cannot act through (see AccountUnusableReason); `message` is for operators, never for merchants or PSPs. */
export class AccountUnusableError extends Error {
  readonly code = ProviderFailureCode.ACCOUNT_UNUSABLE;
  constructor(
    readonly reason: AccountUnusableReason,
    /** The stored account's id, null for a provider's built-in account. */
    readonly accountId: string | null,
    /** The provider that would have handled the call. */
    readonly provider: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AccountUnusableError';
  }
}

export type ProviderFailure = UpstreamError | CredentialsError | WebhookAuthError | WebhookParseError | AccountUnusableError;

export function isProviderFailure(error: unknown): error is ProviderFailure {
  return (
    error instanceof UpstreamError ||
    error instanceof CredentialsError ||
    error instanceof WebhookAuthError ||
    error instanceof WebhookParseError ||
    error instanceof AccountUnusableError
  );
}

/**
 * Who reads the answer. `admin`: the operator (admin API), who may see the PSP's own code and
 * text and why an account is unusable. `merchant` (`/v1`) and `caller` (anonymous `/webhooks`)
 * get generic messages; the details go to the log instead.
 */
export type FailureAudience = 'admin' | 'merchant' | 'caller';

export interface FailureContext {
  audience: FailureAudience;
  /** `create`: the failure of a payment creation (PAYMENT_CREATE_FAILED); anything else is UPSTREAM_ERROR. */
  operation: 'create' | 'call';
  /** The provider that handles the call (the account's). */
  provider: string;
  accountId?: string | null;
  paymentId?: string;
  /**
   * The PSP's own code and text go to the merchant too: a refund the PSP refused outright says why
   * (docs/api.md, Refunds), since the merchant must decide what to do about the money.
   */
  providerReason?: boolean;
  /** Where the failure is logged (a warning, whoever the audience: the terminal shows what the answer may not). */
  logger?: Pick<LoggerService, 'warn'>;
  /** What was asked of the provider, for the log line (`create charge`, `refund`…); defaults from `operation`. */
  action?: string;
}

/**
 * The warning a provider failure writes: the payment, the provider, the account, what was asked and
 * why it failed (the PSP's status and code). Only identifiers and the PSP's own code and text: the
 * request sent (with the payer's document) and the credentials never reach it, and the line still
 * passes the log redaction.
 */
export function providerFailureLog(failure: ProviderFailure, context: FailureContext): [Record<string, unknown>, string] {
  const action = context.action ?? (context.operation === 'create' ? 'create charge' : 'call');
  const upstream = failure instanceof UpstreamError ? failure : undefined;
  const fields = {
    payment_id: context.paymentId ?? null,
    provider: context.provider,
    provider_account_id: context.accountId ?? null,
    operation: action,
    reason: failure.code,
    ...(upstream ? { kind: upstream.kind } : {}),
    upstream_status: upstream?.upstreamStatus ?? null,
    provider_code: upstream?.providerCode ?? null,
    ...(failure instanceof AccountUnusableError ? { unusable: failure.reason } : {}),
  };
  const why = [upstream?.upstreamStatus !== undefined ? `HTTP ${upstream.upstreamStatus}` : (upstream?.kind ?? failure.code), upstream?.providerCode].filter(Boolean).join(' ');
  const on = context.paymentId ? ` for payment ${context.paymentId}` : '';
  const account = context.accountId ? ` (account ${context.accountId})` : ' (built-in account)';
  return [fields, `Provider ${context.provider} ${action} failed${on}${account}: ${why}: ${failure.message}`];
}

function describeUpstream(error: UpstreamError, provider: string): string {
  switch (error.kind) {
    case 'timeout':
      return `The payment provider "${provider}" did not answer in time.`;
    case 'network':
      return `The payment provider "${provider}" could not be reached.`;
    case 'http':
      return (error.upstreamStatus ?? 0) >= 500
        ? `The payment provider "${provider}" failed (HTTP ${error.upstreamStatus}).`
        : `The payment provider "${provider}" refused the request (HTTP ${error.upstreamStatus}).`;
    case 'malformed':
      return `The payment provider "${provider}" answered with a response the gateway could not understand.`;
  }
}

/**
 * The one place a provider failure becomes an API error (docs/api.md, Provider failures). An
 * UpstreamError is 502 with `upstream_status` whenever the PSP answered; its own code and text reach
 * only the admin API. Anything that is not a provider failure is the caller's to rethrow.
 */
export function providerFailureToAppError(failure: ProviderFailure, context: FailureContext): AppError {
  const admin = context.audience === 'admin';
  const failed = context.operation === 'create' ? ErrorCode.PAYMENT_CREATE_FAILED : ErrorCode.UPSTREAM_ERROR;
  context.logger?.warn(...providerFailureLog(failure, context));
  switch (failure.code) {
    case ProviderFailureCode.UPSTREAM: {
      const details: Record<string, unknown> = {};
      const reason = admin || context.providerReason === true;
      if (reason && failure.providerCode !== undefined) details.provider_code = failure.providerCode;
      if (reason && failure.providerMessage !== undefined) details.provider_message = failure.providerMessage;
      return new AppError(failed, {
        message: describeUpstream(failure, context.provider),
        upstreamStatus: failure.upstreamStatus,
        details: Object.keys(details).length ? details : undefined,
        cause: failure,
      });
    }
    case ProviderFailureCode.CREDENTIALS:
      return new AppError(failed, {
        message: admin
          ? `The provider account's credentials can no longer be used (${failure.field}): ${failure.message}`
          : `The payment provider "${context.provider}" could not be used.`,
        cause: failure,
      });
    case ProviderFailureCode.ACCOUNT_UNUSABLE:
      return new AppError(failed, { message: admin ? failure.message : unusableForPublic(failure, context.provider), cause: failure });
    case ProviderFailureCode.WEBHOOK_UNCONFIRMED:
      return new AppError(ErrorCode.INVALID_SIGNATURE, { message: admin ? failure.message : undefined, cause: failure });
    case ProviderFailureCode.WEBHOOK_MALFORMED:
      // The adapter's words about the body's shape, not the PSP's: the poster needs them to fix its request.
      return AppError.validation([{ field: failure.field ?? 'body', message: failure.message }], `The body is not a valid ${context.provider} callback.`);
  }
}

/** What a merchant or an anonymous caller is told about an unusable account: the kind of problem, never the account or its secrets. */
function unusableForPublic(failure: AccountUnusableError, provider: string): string {
  switch (failure.reason) {
    case 'homologation_in_production':
      return `The provider account this merchant is routed to is on the "${provider}" homologation host, which this production gateway does not charge through.`;
    case 'credentials':
    case 'provider_unavailable':
      return `The payment provider "${provider}" is not available.`;
  }
}

/** Rethrows a provider failure as its API error, anything else as it is. */
export function rethrowProviderFailure(error: unknown, context: FailureContext): never {
  if (isProviderFailure(error)) throw providerFailureToAppError(error, context);
  throw error;
}

/**
 * How a failed create at one account decides what routing does next (docs/providers.md, Routing):
 * - `refused`: the PSP refused before charging (connection refused, DNS, TLS, 401/403, a 4xx that
 *   is not about the payment, an account the gateway cannot act through): move on, nothing to undo;
 * - `ambiguous`: the PSP may hold the charge (timeout, a connection lost after sending, 5xx, an
 *   answer that cannot be read): move on, and cancel the orphan in the background;
 * - `rejected`: a validation error about the payment itself (400, 422): every PSP would say the
 *   same, so the create fails here.
 */
export type CreateFailureClass = 'refused' | 'ambiguous' | 'rejected';

/** 4xx answers that are about the payment (its fields, its amount), not about the account or the route. */
const ABOUT_THE_PAYMENT = new Set([400, 422]);

/** The class of a create's failure; undefined when it is no provider failure (a bug: rethrow it). */
export function classifyCreateFailure(error: unknown): CreateFailureClass | undefined {
  if (error instanceof AccountUnusableError || error instanceof CredentialsError) return 'refused';
  if (!(error instanceof UpstreamError)) return undefined;
  switch (error.kind) {
    case 'timeout':
    case 'malformed':
      return 'ambiguous';
    case 'network':
      return error.beforeSending ? 'refused' : 'ambiguous';
    case 'http': {
      const status = error.upstreamStatus ?? 0;
      if (status >= 500 || status === 0) return 'ambiguous';
      return ABOUT_THE_PAYMENT.has(status) ? 'rejected' : 'refused';
    }
  }
}

/**
 * Whether a failed call counts against its account's circuit breaker: the PSP or the way to it is
 * failing (no answer, 5xx, an unreadable answer, 401/403, 408, 429). Other 4xx are about the
 * request (a payment's fields, a charge that does not exist) and say the PSP is up.
 */
export function countsAgainstAccount(error: unknown): boolean {
  if (!(error instanceof UpstreamError)) return false;
  if (error.kind !== 'http') return true;
  const status = error.upstreamStatus ?? 0;
  return status >= 500 || status === 0 || status === 401 || status === 403 || status === 408 || status === 429;
}
