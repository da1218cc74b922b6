import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { merchant } from '../../test/factories';
import { ApiError } from '../api';
import type { Merchant } from '../types';
import { apiFieldErrors, type ProviderChoice, initialValues, MerchantFields, MerchantFormErrors, useMerchantForm, validateMerchant } from './merchant-form';

const valid = { name: 'Loja da Ana', display_name: 'Ana Doces', brand_color: '#0F766E', webhook_url: 'https://shop.example.com/pix', provider: 'sandbox' };
const none = { display_name: '', brand_color: '' };

describe('validateMerchant', () => {
  it('accepts a name alone, and a full valid form', () => {
    expect(validateMerchant({ name: 'Loja da Ana', ...none, webhook_url: '', provider: '' })).toEqual({});
    expect(validateMerchant(valid)).toEqual({});
  });

  it('asks for a name of at most 200 characters', () => {
    expect(validateMerchant({ ...valid, name: '   ' }).name).toBe('Give the merchant a name.');
    expect(validateMerchant({ ...valid, name: 'x'.repeat(201) }).name).toBe('The name can have at most 200 characters.');
    expect(validateMerchant({ ...valid, name: 'x'.repeat(200) }).name).toBeUndefined();
  });

  it('takes a display name of at most 80 characters, without control characters', () => {
    expect(validateMerchant({ ...valid, display_name: ` ${'x'.repeat(80)} ` }).display_name).toBeUndefined();
    expect(validateMerchant({ ...valid, display_name: 'x'.repeat(81) }).display_name).toBe('The display name can have at most 80 characters.');
    expect(validateMerchant({ ...valid, display_name: 'Ana\u0085Doces' }).display_name).toBe('The display name cannot contain control characters.');
  });

  it('takes a brand colour as #RRGGBB in either case, or none', () => {
    for (const brand_color of ['', '#0f766e', '#ABCDEF', ' #0b6e4f ']) expect(validateMerchant({ ...valid, brand_color }).brand_color).toBeUndefined();
    for (const brand_color of ['0f766e', '#0f766', '#0f766e00', 'teal', '#gg0000'])
      expect(validateMerchant({ ...valid, brand_color }).brand_color).toBe('Enter a colour as # and six hexadecimal digits (#0F766E), or leave it empty.');
  });

  it('wants a full http(s) webhook address of at most 2048 characters', () => {
    const message = 'Enter a full http:// or https:// address, or leave it empty.';
    expect(validateMerchant({ ...valid, webhook_url: 'shop.example.com/pix' }).webhook_url).toBe(message);
    expect(validateMerchant({ ...valid, webhook_url: 'ftp://shop.example.com/pix' }).webhook_url).toBe(message);
    const long = `https://shop.example.com/${'a'.repeat(2030)}`;
    expect(validateMerchant({ ...valid, webhook_url: long }).webhook_url).toBe('The address can have at most 2048 characters.');
  });
});

describe('apiFieldErrors and initialValues', () => {
  it("places the API's field problems beside the matching fields", () => {
    const error = new ApiError(400, 'VALIDATION_ERROR', 'Please check: …', [{ field: 'webhook_url', message: 'webhook_url must resolve to a public address' }]);
    expect(apiFieldErrors(error)).toEqual({
      name: undefined,
      display_name: undefined,
      brand_color: undefined,
      webhook_url: 'webhook_url must resolve to a public address',
      provider: undefined,
    });
    const colour = new ApiError(400, 'VALIDATION_ERROR', 'Please check: …', [{ field: 'brand_color', message: 'brand_color must be a colour as #RRGGBB, or null' }]);
    expect(apiFieldErrors(colour).brand_color).toBe('brand_color must be a colour as #RRGGBB, or null');
    expect(apiFieldErrors(new Error('boom'))).toEqual({});
  });

  it("starts from a merchant's values, empty where it has none", () => {
    expect(initialValues(merchant({ name: 'Loja', webhook_url: null, provider: null }))).toEqual({ name: 'Loja', ...none, webhook_url: '', provider: '' });
    expect(initialValues(merchant({ name: 'Loja', display_name: 'Ana Doces', brand_color: '#0b6e4f', webhook_url: null, provider: null }))).toMatchObject({
      display_name: 'Ana Doces',
      brand_color: '#0b6e4f',
    });
    expect(initialValues()).toEqual({ name: '', ...none, webhook_url: '', provider: '' });
  });
});

function Form({ from, errors = {}, providers }: { from?: Merchant; errors?: MerchantFormErrors; providers?: ProviderChoice[] }) {
  const form = useMerchantForm(from);
  return (
    <>
      <MerchantFields idPrefix="m" values={form.values} errors={errors} onChange={form.setValues} providers={providers} />
      <output>{JSON.stringify(form.values)}</output>
    </>
  );
}

describe('MerchantFields', () => {
  const RUN = [
    { name: 'sandbox', label: 'Sandbox (simulated PSP)' },
    { name: 'mercadopago', label: 'Mercado Pago' },
  ];
  const options = () => [...screen.getByLabelText<HTMLSelectElement>('Provider').options].map((o) => [o.value, o.textContent]);

  it('offers the providers the gateway runs, and the default, as a choice rather than free text', async () => {
    render(<Form from={merchant({ name: 'Loja', webhook_url: null, provider: null })} providers={RUN} />);
    expect(screen.getByLabelText('Provider').tagName).toBe('SELECT');
    expect(options()).toEqual([
      ['', "The gateway's default"],
      ['sandbox', 'Sandbox (simulated PSP)'],
      ['mercadopago', 'Mercado Pago'],
    ]);
    await userEvent.selectOptions(screen.getByLabelText('Provider'), 'mercadopago');
    expect(JSON.parse(screen.getByRole('status').textContent).provider).toBe('mercadopago');
  });

  it("keeps a merchant's provider the gateway no longer runs as a choice, said so, and its value while the list loads", () => {
    const { unmount } = render(<Form from={merchant({ name: 'Loja', webhook_url: null, provider: 'retired' })} providers={RUN} />);
    expect(options().at(-1)).toEqual(['retired', 'retired (not run by this gateway)']);
    expect(screen.getByLabelText('Provider')).toHaveProperty('value', 'retired');
    unmount();
    render(<Form from={merchant({ name: 'Loja', webhook_url: null, provider: 'sandbox' })} />);
    expect(options()).toEqual([
      ['', "The gateway's default"],
      ['sandbox', 'sandbox'],
    ]);
    expect(screen.getByLabelText('Provider')).toHaveProperty('value', 'sandbox');
  });

  it("shows the merchant's values, and the changes typed", async () => {
    render(<Form from={merchant({ name: 'Loja', webhook_url: null, provider: 'sandbox' })} />);
    expect(screen.getByLabelText('Name')).toHaveProperty('value', 'Loja');
    expect(screen.getByLabelText('Provider')).toHaveProperty('value', 'sandbox');
    await userEvent.type(screen.getByLabelText('Webhook URL'), 'https://a.example/pix');
    expect(JSON.parse(screen.getByRole('status').textContent)).toEqual({ name: 'Loja', ...none, webhook_url: 'https://a.example/pix', provider: 'sandbox' });
  });

  it('shows each problem under its field and marks the field invalid', () => {
    render(<Form errors={{ name: 'Give the merchant a name.' }} />);
    expect(screen.getByText('Give the merchant a name.')).toBeTruthy();
    expect(screen.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Webhook URL').getAttribute('aria-invalid')).toBe('false');
    expect(screen.getByText('Where payment events are sent. Leave empty to send none.')).toBeTruthy();
  });
});
