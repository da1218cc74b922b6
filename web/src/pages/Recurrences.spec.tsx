import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tableRows, visit } from '../../test/dom';
import { merchant, page, recurrence } from '../../test/factories';
import { Failure, useFakeApi } from '../../test/fake-api';
import { formatDate } from '../format';
import { Recurrences } from './Recurrences';

const ana = merchant({ id: 'mer_ana', name: 'Loja da Ana' });
const bia = merchant({ id: 'mer_bia', name: 'Loja da Bia' });

describe('Recurrences', () => {
  const api = useFakeApi();
  const listed = () => api.requests('GET /recurrences').map((r) => r.query);
  beforeEach(() => {
    visit('/admin/recurrences');
    api.on('GET /merchants', page([ana, bia]));
  });

  it('lists recurrences with their merchant, payer, what the payer authorized and their status', async () => {
    api.on(
      'GET /recurrences',
      page([
        recurrence({ id: 'rec_1', externalId: 'gym-1', merchant_id: 'mer_bia', amount: 89.9, frequency: 'monthly', status: 'pending_authorization' }),
        recurrence({ id: 'rec_2', externalId: 'school-2', merchant_id: 'mer_gone', amount: null, minimumAmount: 50, frequency: 'annual', environment: 'production' }),
      ]),
    );
    render(<Recurrences />);
    await screen.findByRole('table', { name: 'Recurrences' });
    await waitFor(() => expect(tableRows('Recurrences')[0]![2]).toBe('Loja da Bia'));
    const created = formatDate(recurrence().createdAt);
    expect(tableRows('Recurrences')).toEqual([
      [created, 'gym-1rec_1', 'Loja da Bia', 'Ana Souza', 'R$\u00a089,90 / month', 'waiting for the payer test'],
      [created, 'school-2rec_2', 'mer_gone', 'Ana Souza', 'from R$\u00a050,00 / year', 'active'],
    ]);
    expect(screen.getByRole('link', { name: 'gym-1' }).getAttribute('href')).toBe('/admin/recurrences/rec_1');
    expect(listed()).toEqual([{ limit: '20' }]);
  });

  it('asks the API for the chosen filters and keeps them in the URL; a malformed external id is not sent', async () => {
    api.on('GET /recurrences', page([]));
    render(<Recurrences />);
    await userEvent.selectOptions(await screen.findByLabelText('Merchant'), await screen.findByRole('option', { name: 'Loja da Ana' }));
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'active');
    await userEvent.type(screen.getByLabelText('External id'), 'gym 1');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText('An external id is 1–64 letters, digits or . _ : -')).toBeTruthy();
    expect(listed()).toHaveLength(1);

    await userEvent.clear(screen.getByLabelText('External id'));
    await userEvent.type(screen.getByLabelText('External id'), ' gym-1 ');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(listed()).toHaveLength(2));
    expect(listed()[1]).toEqual({ merchant_id: 'mer_ana', status: 'active', external_id: 'gym-1', limit: '20' });
    expect(location.search).toBe('?merchant_id=mer_ana&status=active&external_id=gym-1');
    expect(await screen.findByText('No recurrence matches these filters.')).toBeTruthy();
  });

  it('offers every status, named in words', async () => {
    api.on('GET /recurrences', page([]));
    render(<Recurrences />);
    const options = within(await screen.findByLabelText('Status')).getAllByRole('option');
    expect(options.map((o) => [o.getAttribute('value'), o.textContent])).toEqual([
      ['', 'Any status'],
      ['pending_authorization', 'Waiting for the payer'],
      ['active', 'Active'],
      ['rejected', 'Rejected'],
      ['expired', 'Expired'],
      ['cancelled', 'Cancelled'],
      ['ended', 'Ended'],
    ]);
    expect(await screen.findByText('No recurrences yet.')).toBeTruthy();
  });

  it('pages older and back newer with the cursors the API gave', async () => {
    api.on('GET /recurrences', ({ query }) =>
      query.cursor === 'c2' ? page([recurrence({ id: 'rec_old', externalId: 'old' })]) : page([recurrence({ id: 'rec_new', externalId: 'new' })], 'c2'),
    );
    render(<Recurrences />);
    await screen.findByRole('link', { name: 'new' });
    expect(screen.getByRole('button', { name: '← Newer' })).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByRole('button', { name: 'Older →' }));
    await screen.findByRole('link', { name: 'old' });
    expect(location.search).toBe('?cursor=c2');
    expect(screen.getByRole('button', { name: 'Older →' })).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByRole('button', { name: '← Newer' }));
    await screen.findByRole('link', { name: 'new' });
    expect(listed()).toEqual([{ limit: '20' }, { limit: '20', cursor: 'c2' }, { limit: '20' }]);
  });

  it("says why the list could not be read, in the API's words", async () => {
    api.on(
      'GET /recurrences',
      new Failure(400, {
        code: 'VALIDATION_ERROR',
        message: 'The request is invalid.',
        details: { fields: [{ field: 'cursor', message: 'cursor is not a cursor this API returned' }] },
      }),
    );
    render(<Recurrences />);
    expect((await screen.findByRole('alert')).textContent).toBe('Please check: cursor is not a cursor this API returned.');
  });
});
