import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { merchant } from '../test/factories';
import { deferred, Failure, useFakeApi } from '../test/fake-api';
import { RecordHeader, RecordUnloaded, SettingsCard, useRecord } from './record';
import type { Merchant } from './types';
import type { FieldErrors } from './ui';

// The pieces of a record's page (record.tsx), on a page of their own: MerchantDetail and
// ProviderAccountDetail are built from them.
describe('a record page', () => {
  const api = useFakeApi();
  const ana = merchant({ id: 'mer_ana', name: 'Loja da Ana', active: false });

  function Page({ id }: { id: string }) {
    const page = useRecord<Merchant>('/merchants', id);
    if (!page.data) return <RecordUnloaded title="Merchant" error={page.error} back={{ to: '/admin/merchants', label: 'Back to merchants' }} />;
    return (
      <RecordHeader
        page={page}
        list={{ to: '/admin/merchants', label: 'Merchants' }}
        deactivate={{ title: 'Deactivate this merchant?', explain: <p>Its keys are refused.</p>, done: 'The merchant is inactive.' }}
        reactivated="The merchant is active again."
      />
    );
  }

  it('waits for the record with a spinner, then shows its name, status and id, and the way back to the list', async () => {
    const answer = deferred<Merchant>();
    api.on('GET /merchants/{id}', () => answer.promise);
    render(<Page id="mer_ana" />);
    expect(screen.getByRole('status').textContent).toBe('Loading…');
    answer.resolve(ana);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Loja da Ana inactive');
    expect(screen.getByText('mer_ana')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Merchants' }).getAttribute('href')).toBe('/admin/merchants');
  });

  it('says why the record could not be read, with the way back', async () => {
    api.on('GET /merchants/{id}', new Failure(404, { code: 'NOT_FOUND', message: 'Merchant not found.' }));
    render(<Page id="mer_nope" />);
    expect((await screen.findByRole('alert')).textContent).toBe('Merchant not found.');
    expect(screen.getByRole('heading', { level: 1, name: 'Merchant' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to merchants' }).getAttribute('href')).toBe('/admin/merchants');
  });

  it('shows the button it runs for as busy, then the record the API returns and what was done', async () => {
    const answer = deferred<Merchant>();
    api.on('GET /merchants/{id}', ana);
    api.on('PATCH /merchants/{id}', () => answer.promise);
    render(<Page id="mer_ana" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Reactivate' }));
    expect(screen.getByRole('button', { name: 'Reactivate' }).getAttribute('aria-busy')).toBe('true');
    answer.resolve({ ...ana, active: true });
    expect(await screen.findByRole('button', { name: 'Deactivate' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('The merchant is active again.');
    expect(api.requests('PATCH /merchants/{id}').map((r) => [r.params.id, r.body])).toEqual([['mer_ana', { active: true }]]);
  });

  it('deactivates only once confirmed, and can be cancelled', async () => {
    api.on('GET /merchants/{id}', { ...ana, active: true });
    api.on('PATCH /merchants/{id}', { ...ana, active: false });
    render(<Page id="mer_ana" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Deactivate' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Deactivate this merchant?' }));
    expect(dialog.getByText('Its keys are refused.')).toBeTruthy();
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.requests('PATCH /merchants/{id}')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Deactivate' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByRole('button', { name: 'Reactivate' })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('status').textContent).toContain('The merchant is inactive.');
    expect(api.requests('PATCH /merchants/{id}').map((r) => r.body)).toEqual([{ active: false }]);
  });

  it('turns a failed change into words that can be dismissed, and leaves the record as it was', async () => {
    api.on('GET /merchants/{id}', ana);
    api.on('PATCH /merchants/{id}', new Failure(409, { code: 'CONFLICT', message: 'The merchant changed meanwhile.' }));
    render(<Page id="mer_ana" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Reactivate' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The merchant changed meanwhile.');
    expect(screen.getByRole('button', { name: 'Reactivate' })).toHaveProperty('disabled', false);
    await userEvent.click(within(alert).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('SettingsCard', () => {
  const original = { name: 'Loja da Ana', webhook_url: 'https://ana.example/pix' };
  function Settings({ onSave }: { onSave: (body: Record<string, unknown>) => Promise<unknown> }) {
    return (
      <SettingsCard
        label="Merchant settings"
        original={original}
        keys={['name', 'webhook_url'] as const}
        check={(values): FieldErrors => (values.name.trim() ? {} : { name: 'Give the merchant a name.' })}
        fieldErrors={(): FieldErrors => ({})}
        onSave={onSave}
        fields={(values, errors, onChange) => (
          <>
            <label htmlFor="s-name">Name</label>
            <input id="s-name" value={values.name} onChange={(e) => onChange({ ...values, name: e.target.value })} aria-invalid={!!errors.name} />
            {errors.name}
            <label htmlFor="s-url">Webhook URL</label>
            <input id="s-url" value={values.webhook_url} onChange={(e) => onChange({ ...values, webhook_url: e.target.value })} />
          </>
        )}
      >
        <p>Created yesterday</p>
      </SettingsCard>
    );
  }

  it('offers to save and discard only once something changed; discarding puts the values back', async () => {
    const onSave = jest.fn().mockResolvedValue(undefined);
    render(<Settings onSave={onSave} />);
    const form = within(screen.getByRole('form', { name: 'Merchant settings' }));
    expect(form.getByRole('button', { name: 'Save changes' })).toHaveProperty('disabled', true);
    expect(form.queryByRole('button', { name: 'Discard' })).toBeNull();
    expect(form.getByText('Created yesterday')).toBeTruthy();
    await userEvent.type(form.getByLabelText('Webhook URL'), '/v2');
    expect(form.getByRole('button', { name: 'Save changes' })).toHaveProperty('disabled', false);
    await userEvent.click(form.getByRole('button', { name: 'Discard' }));
    expect(form.getByLabelText('Webhook URL')).toHaveProperty('value', 'https://ana.example/pix');
    expect(form.getByRole('button', { name: 'Save changes' })).toHaveProperty('disabled', true);
    expect(onSave).not.toHaveBeenCalled();
  });

  it('checks before saving, then sends the changed settings trimmed, an emptied one as null', async () => {
    const onSave = jest.fn().mockResolvedValue(undefined);
    render(<Settings onSave={onSave} />);
    const form = within(screen.getByRole('form', { name: 'Merchant settings' }));
    await userEvent.clear(form.getByLabelText('Name'));
    await userEvent.click(form.getByRole('button', { name: 'Save changes' }));
    expect(form.getByText('Give the merchant a name.')).toBeTruthy();
    expect(form.getByLabelText('Name').getAttribute('aria-invalid')).toBe('true');
    expect(onSave).not.toHaveBeenCalled();
    await userEvent.type(form.getByLabelText('Name'), ' Loja Nova ');
    await userEvent.clear(form.getByLabelText('Webhook URL'));
    await userEvent.click(form.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledWith({ name: 'Loja Nova', webhook_url: null }));
    expect(form.queryByText('Give the merchant a name.')).toBeNull();
  });
});
