import { AppError } from './app-error';
import { nameProvider, namingProvider, providerNamedBy } from './answer-provider';
import { ErrorCode } from './error-codes';

describe('the provider an error names in its answer', () => {
  it('is the one the step nearest the failure named: an outer step keeps it', async () => {
    const charged = new AppError(ErrorCode.PAYMENT_CREATE_FAILED);
    const thrown = namingProvider('sandbox', () => namingProvider('efi', () => Promise.reject(charged)));
    await expect(thrown).rejects.toBe(charged);
    expect(providerNamedBy(charged)).toBe('efi');
  });

  it('names any thrown object, and nothing when no provider is known', async () => {
    const fault = new Error('the database went away');
    await expect(namingProvider(undefined, () => Promise.reject(fault))).rejects.toBe(fault);
    expect(providerNamedBy(fault)).toBeUndefined();
    expect(providerNamedBy(nameProvider(fault, 'mercadopago'))).toBe('mercadopago');
    expect(providerNamedBy('a string')).toBeUndefined();
  });

  it('passes an answer through untouched', async () => {
    await expect(namingProvider('sandbox', () => Promise.resolve(42))).resolves.toBe(42);
  });
});
