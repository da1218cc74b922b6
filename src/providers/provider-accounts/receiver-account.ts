import type { ReceiverAccount } from '../recurring';

/** Every `tipoConta` of the port's type and no other (a record's keys, so the compiler checks both ways). */
export const RECEIVER_ACCOUNT_TYPES = Object.keys({ CORRENTE: true, POUPANCA: true, PAGAMENTO: true } satisfies Record<
  ReceiverAccount['tipoConta'],
  true
>) as ReceiverAccount['tipoConta'][];

/** The three fields and nothing else: what is stored and shown, whatever object carried them. */
export function receiverAccountOf(value: ReceiverAccount): ReceiverAccount {
  return { agencia: value.agencia, conta: value.conta, tipoConta: value.tipoConta };
}
