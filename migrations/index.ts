import { InitialSchema1763800000000 } from './1763800000000-InitialSchema';
import { WebhookPipeline1763810000000 } from './1763810000000-WebhookPipeline';
import { PaymentReconciliation1795334244681 } from './1795334244681-PaymentReconciliation';
import { AdminSessions1795334469860 } from './1795334469860-AdminSessions';
import { ProviderAccounts1795400000000 } from './1795400000000-ProviderAccounts';
import { PaymentPixDetails1795400000001 } from './1795400000001-PaymentPixDetails';
import { AccountScopedEvents1795500000000 } from './1795500000000-AccountScopedEvents';
import { PaymentRecipientEmail1795600000000 } from './1795600000000-PaymentRecipientEmail';
import { PaymentAttempts1795610000000 } from './1795610000000-PaymentAttempts';
import { Refunds1795700000000 } from './1795700000000-Refunds';
import { DeliveryAttemptAnswers1795800000000 } from './1795800000000-DeliveryAttemptAnswers';
import { ApiKeyLastUsed1795810000000 } from './1795810000000-ApiKeyLastUsed';
import { ChangeNotifications1795820000000 } from './1795820000000-ChangeNotifications';
import { Recurrences1795900000000 } from './1795900000000-Recurrences';
import { PaidAfterClose1796000000000 } from './1796000000000-PaidAfterClose';
import { IdempotencyHolder1796010000000 } from './1796010000000-IdempotencyHolder';
import { RecurringChargePending1796020000000 } from './1796020000000-RecurringChargePending';
import { InvariantChecks1796030000000 } from './1796030000000-InvariantChecks';
import { DueCharges1796040000000 } from './1796040000000-DueCharges';
import { PaymentBatches1796050000000 } from './1796050000000-PaymentBatches';
import { RecurrenceDueJourney1796060000000 } from './1796060000000-RecurrenceDueJourney';
import { Checkout1796070000000 } from './1796070000000-Checkout';
import { PaymentLinks1796080000000 } from './1796080000000-PaymentLinks';
import { CheckoutChanges1796090000000 } from './1796090000000-CheckoutChanges';

/** Every migration, in order. Hand-written SQL within PostgreSQL 15 features; both databases run them. */
export const ALL_MIGRATIONS = [
  InitialSchema1763800000000,
  WebhookPipeline1763810000000,
  PaymentReconciliation1795334244681,
  AdminSessions1795334469860,
  ProviderAccounts1795400000000,
  PaymentPixDetails1795400000001,
  AccountScopedEvents1795500000000,
  PaymentRecipientEmail1795600000000,
  PaymentAttempts1795610000000,
  Refunds1795700000000,
  DeliveryAttemptAnswers1795800000000,
  ApiKeyLastUsed1795810000000,
  ChangeNotifications1795820000000,
  Recurrences1795900000000,
  PaidAfterClose1796000000000,
  IdempotencyHolder1796010000000,
  RecurringChargePending1796020000000,
  InvariantChecks1796030000000,
  DueCharges1796040000000,
  PaymentBatches1796050000000,
  RecurrenceDueJourney1796060000000,
  Checkout1796070000000,
  PaymentLinks1796080000000,
  CheckoutChanges1796090000000,
];
