import { providerCatalogue } from '../../test/factories';
import type { ProviderDescriptor } from '../types';
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
  const withRecurring = (catalogue: ProviderDescriptor[], offers: (name: string) => unknown) =>
    catalogue.map((p) => ({ ...p, capabilities: { ...p.capabilities, recurring: offers(p.name) } }) as ProviderDescriptor);

  it('offers a receiver account for every provider while the catalogue states no recurring capability', () => {
    // A gateway from before the capability: no `recurring` in any provider's capabilities.
    const catalogue = providerCatalogue().map(({ capabilities: { recurring: _recurring, ...capabilities }, ...p }) => ({ ...p, capabilities }) as ProviderDescriptor);
    expect(catalogue.every((p) => takesRecurrences(catalogue, p))).toBe(true);
  });

  it('offers it only where the catalogue declares the capability, once it states one', () => {
    const declared = withRecurring(providerCatalogue(), (name) => (name === 'banco-a' ? { lead_time: 'x' } : null));
    expect(declared.filter((p) => takesRecurrences(declared, p)).map((p) => p.name)).toEqual(['banco-a']);
    const flags = withRecurring(providerCatalogue(), (name) => name === 'coop');
    expect(flags.filter((p) => takesRecurrences(flags, p)).map((p) => p.name)).toEqual(['coop']);
    expect(takesRecurrences(flags, undefined)).toBe(false);
  });
});
