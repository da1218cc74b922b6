import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tableRows, visit } from '../../test/dom';
import { listedDelivery, page } from '../../test/factories';
import { Failure, useFakeApi } from '../../test/fake-api';
import { formatDate } from '../format';
import { Deliveries } from './Deliveries';

describe('Deliveries', () => {
  const api = useFakeApi();
  const listed = () => api.requests('GET /webhook-deliveries').map((r) => r.query);
  beforeEach(() => visit('/admin/deliveries'));

  it('opens on the failed deliveries, each with its merchant, payment, state and last result', async () => {
    api.on('GET /webhook-deliveries', page([listedDelivery({ payment_id: 'pay_1', merchant_name: 'Loja da Ana', attempts: 8, last_status_code: 503 })]));
    render(<Deliveries />);
    await screen.findByRole('table', { name: 'failed deliveries' });
    expect(screen.getByRole('tab', { name: 'Failed' }).getAttribute('aria-selected')).toBe('true');
    expect(tableRows('failed deliveries')).toEqual([
      [formatDate(listedDelivery().created_at), 'payment.confirmed failed', 'Loja da Ana', 'pay_1', 'Gave up after 8 attempts', 'HTTP 503', 'Redeliver'],
    ]);
    expect(screen.getByRole('link', { name: 'pay_1' }).getAttribute('href')).toBe('/admin/payments/pay_1');
    expect(listed()).toEqual([{ status: 'failed', limit: '50' }]);
  });

  it('switches tabs through the URL and says when a tab is empty', async () => {
    api.on('GET /webhook-deliveries', page([]));
    render(<Deliveries />);
    expect(await screen.findByText('No failed deliveries: every merchant took its events.')).toBeTruthy();
    await userEvent.click(screen.getByRole('tab', { name: 'Pending' }));
    expect(await screen.findByText('Nothing is waiting to be delivered.')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Pending' }).getAttribute('aria-selected')).toBe('true');
    expect(location.search).toBe('?status=pending');
    expect(listed().map((q) => q.status)).toEqual(['failed', 'pending']);
  });

  it('offers no redelivery of what was delivered', async () => {
    visit('/admin/deliveries?status=delivered');
    api.on('GET /webhook-deliveries', page([listedDelivery({ status: 'delivered', delivered_at: '2024-05-02T13:45:10.000Z', attempts: 1, last_status_code: 200 })]));
    render(<Deliveries />);
    await screen.findByRole('table', { name: 'delivered deliveries' });
    expect(screen.getByRole('tab', { name: 'Delivered' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByRole('button', { name: 'Redeliver' })).toBeNull();
  });

  it('loads more with the cursor until the last page', async () => {
    api.on('GET /webhook-deliveries', ({ query }) =>
      query.cursor === 'c2' ? page([listedDelivery({ payment_id: 'pay_2' })]) : page([listedDelivery({ payment_id: 'pay_1' })], 'c2'),
    );
    render(<Deliveries />);
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('link', { name: 'pay_2' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'pay_1' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(listed()).toEqual([
      { status: 'failed', limit: '50' },
      { status: 'failed', limit: '50', cursor: 'c2' },
    ]);
  });

  it('tells when the next page could not be loaded', async () => {
    api.on('GET /webhook-deliveries', ({ query }) =>
      query.cursor ? new Failure(503, { code: 'SERVICE_UNAVAILABLE', message: 'The database is not reachable.' }) : page([listedDelivery()], 'c2'),
    );
    render(<Deliveries />);
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect((await screen.findByRole('alert')).textContent).toContain('The database is not reachable.');
  });

  it('queues a redelivery, says so and reloads the list', async () => {
    const failed = listedDelivery({ id: 'dlv_9' });
    api.on('GET /webhook-deliveries', page([failed]));
    api.on('POST /webhook-deliveries/{id}/redeliver', { ...failed, status: 'pending' });
    render(<Deliveries />);
    await userEvent.click(await screen.findByRole('button', { name: 'Redeliver' }));
    expect((await screen.findByRole('status')).textContent).toContain('A new attempt is queued; it will be made within seconds.');
    await waitFor(() => expect(listed()).toHaveLength(2));
    expect(api.requests('POST /webhook-deliveries/{id}/redeliver')[0]!.params.id).toBe('dlv_9');
  });
});
