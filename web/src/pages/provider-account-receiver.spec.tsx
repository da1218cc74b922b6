import { providerCatalogue } from '../../test/factories';
import { emptyReceiver, receiverBody, takesRecurrences, validateReceiver } from './provider-account-receiver';

describe('receiver account values', () => {
  it('asks nothing of an optional one left empty, and sends none', () => {
    expect(validateReceiver(emptyReceiver())).toEqual({});
    expect(receiverBody(emptyReceiver())).toBeNull();
  });

  it('asks for every field once one is filled, or when it is required', () => {
    const missing = {
      'receiver_account.agencia': 'Give the branch number.',
      'receiver_account.conta': 'Give the account number.',
      'receiver_account.tipoConta': 'Choose the account type.',
    };
    expect(validateReceiver(emptyReceiver(), true)).toEqual(missing);
    expect(validateReceiver({ ...emptyReceiver(), conta: '123' })).toEqual({
      'receiver_account.agencia': missing['receiver_account.agencia'],
      'receiver_account.tipoConta': missing['receiver_account.tipoConta'],
    });
  });

  it("holds to the Pix API's limits: a branch of at most 4 characters, an account number of at most 20", () => {
    expect(validateReceiver({ agencia: '00001', conta: '1'.repeat(21), tipoConta: 'CORRENTE' })).toEqual({
      'receiver_account.agencia': 'A branch number has at most 4 characters.',
      'receiver_account.conta': 'An account number has at most 20 characters.',
    });
    expect(validateReceiver({ agencia: '0001', conta: '1'.repeat(20), tipoConta: 'PAGAMENTO' })).toEqual({});
  });

  it('sends the three fields trimmed', () => {
    expect(receiverBody({ agencia: ' 0001 ', conta: '1234567 ', tipoConta: 'POUPANCA' })).toEqual({ agencia: '0001', conta: '1234567', tipoConta: 'POUPANCA' });
  });
});

describe('takesRecurrences', () => {
  it('offers a receiver account only where the catalogue declares Pix Automático', () => {
    const catalogue = providerCatalogue();
    expect(catalogue.filter((p) => takesRecurrences(p)).map((p) => p.name)).toEqual(catalogue.filter((p) => p.capabilities.recurring !== null).map((p) => p.name));
    expect(catalogue.some((p) => !takesRecurrences(p))).toBe(true);
    expect(takesRecurrences(undefined)).toBe(false);
  });
});
