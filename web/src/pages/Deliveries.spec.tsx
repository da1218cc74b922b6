import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tableRows, visit } from '../../test/dom';
import { listedDelivery, minutesFromNow, page } from '../../test/factories';
import { Failure, useFakeApi } from '../../test/fake-api';
import { formatDate, formatDateSeconds } from '../format';
import type { DeliveryDetail, ListedDelivery, TestEventResult } from '../types';
import { Deliveries } from './Deliveries';

function deliveryDetail(overrides: Partial<DeliveryDetail> = {}): DeliveryDetail {
  return {
    ...listedDelivery({ id: 'dlv_1', status: 'pending', attempts: 2, last_status_code: 500, last_error: 'HTTP 500' }),
    body: { event: 'payment.confirmed', id: 'evt_1', data: { id: 'pay_1', amount: 10.5 } },
    attempt_history: [
      {
        attempt: 1,
        attempted_at: '2024-05-02T13:45:10.000Z',
        url: 'https://shop.example.com/hook',
        status_code: 500,
        latency_ms: 84,
        error: 'HTTP 500',
        response_excerpt: '{"error":"order not found"}',
      },
      {
        attempt: 2,
        attempted_at: '2024-05-02T13:46:10.000Z',
        url: 'https://shop.example.com/hook',
        status_code: null,
        latency_ms: 2000,
        error: 'timeout after 2000 ms',
        response_excerpt: null,
      },
    ],
    ...overrides,
  };
}

describe('Deliveries', () => {
  const api = useFakeApi();
  const listed = () => api.requests('GET /webhook-deliveries').map((r) => r.query);
  /** Answers each filter with its own list. */
  const lists = (by: Partial<Record<string, ListedDelivery[]>>) => api.on('GET /webhook-deliveries', ({ query }) => page(by[query.status ?? ''] ?? []));
  beforeEach(() => visit('/admin/deliveries'));

  it('opens on what needs attention: the deliveries being retried first, then the failed ones', async () => {
    lists({
      retrying: [listedDelivery({ status: 'pending', payment_id: 'pay_2', attempts: 2, next_attempt_at: minutesFromNow(5), last_status_code: 500, last_error: 'HTTP 500' })],
      failed: [listedDelivery({ payment_id: 'pay_1', merchant_name: 'Loja da Ana', attempts: 8, last_status_code: 503 })],
    });
    render(<Deliveries />);
    await screen.findByRole('table', { name: 'failed deliveries' });
    expect(screen.getByRole('tab', { name: 'Needs attention' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual(['Retrying', 'Failed']);
    const created = formatDate(listedDelivery().created_at);
    expect(tableRows('retrying deliveries')).toEqual([[created, 'payment.confirmed pending', 'Loja da Ana', 'pay_2', 'Attempt 3 in 5 min', 'HTTP 500', 'DetailsRedeliver']]);
    expect(tableRows('failed deliveries')).toEqual([[created, 'payment.confirmed failed', 'Loja da Ana', 'pay_1', 'Gave up after 8 attempts', 'HTTP 503', 'DetailsRedeliver']]);
    expect(screen.getByRole('link', { name: 'pay_1' }).getAttribute('href')).toBe('/admin/payments/pay_1');
    expect(listed()).toEqual([
      { status: 'retrying', limit: '50' },
      { status: 'failed', limit: '50' },
    ]);
  });

  it("links a recurrence's delivery to its recurrence", async () => {
    lists({
      failed: [
        listedDelivery({ event_type: 'recurrence.authorized', payment_id: null, recurrence_id: 'rec_1', attempts: 8 }),
        listedDelivery({ event_type: 'recurring_charge.paid', payment_id: null, recurrence_id: 'rec_1', attempts: 8 }),
      ],
    });
    render(<Deliveries />);
    await screen.findByRole('table', { name: 'failed deliveries' });
    expect(tableRows('failed deliveries').map((cells) => [cells[1], cells[3]])).toEqual([
      ['recurrence.authorized failed', 'rec_1'],
      ['recurring_charge.paid failed', 'rec_1'],
    ]);
    expect(screen.getAllByRole('link', { name: 'rec_1' }).map((link) => link.getAttribute('href'))).toEqual(['/admin/recurrences/rec_1', '/admin/recurrences/rec_1']);
  });

  it("links a batch's delivery to its batch", async () => {
    lists({ failed: [listedDelivery({ event_type: 'payment_batch.completed', payment_id: null, batch_id: 'bat_1', attempts: 8 })] });
    render(<Deliveries />);
    await screen.findByRole('table', { name: 'failed deliveries' });
    expect(tableRows('failed deliveries').map((cells) => [cells[1], cells[3]])).toEqual([['payment_batch.completed failed', 'bat_1']]);
    expect(screen.getByRole('link', { name: 'bat_1' }).getAttribute('href')).toBe('/admin/payment-batches/bat_1');
  });

  it('says for each list what its emptiness means, and nothing about the other', async () => {
    lists({ failed: [listedDelivery()] });
    render(<Deliveries />);
    expect(await screen.findByText('No delivery is being retried: none has a failed attempt and a next one due.')).toBeTruthy();
    await screen.findByRole('table', { name: 'failed deliveries' });
    expect(screen.queryByText('No delivery has failed for good.')).toBeNull();
  });

  it('switches tabs through the URL; an old ?status=failed link opens on what needs attention', async () => {
    lists({});
    visit('/admin/deliveries?status=failed');
    render(<Deliveries />);
    expect(await screen.findByText('No delivery has failed for good.')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Needs attention' }).getAttribute('aria-selected')).toBe('true');
    await userEvent.click(screen.getByRole('tab', { name: 'Pending' }));
    expect(await screen.findByText('Nothing is waiting to be delivered.')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'Pending' }).getAttribute('aria-selected')).toBe('true');
    expect(location.search).toBe('?status=pending');
    expect(listed().map((q) => q.status)).toEqual(['retrying', 'failed', 'pending']);
  });

  it('offers no redelivery of what was delivered', async () => {
    visit('/admin/deliveries?status=delivered');
    lists({ delivered: [listedDelivery({ status: 'delivered', delivered_at: '2024-05-02T13:45:10.000Z', attempts: 1, last_status_code: 200 })] });
    render(<Deliveries />);
    await screen.findByRole('table', { name: 'delivered deliveries' });
    expect(screen.getByRole('tab', { name: 'Delivered' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByRole('button', { name: 'Redeliver' })).toBeNull();
  });

  it('loads more of one list with its cursor until the last page', async () => {
    api.on('GET /webhook-deliveries', ({ query }) =>
      query.status !== 'failed' ? page([]) : query.cursor === 'c2' ? page([listedDelivery({ payment_id: 'pay_2' })]) : page([listedDelivery({ payment_id: 'pay_1' })], 'c2'),
    );
    render(<Deliveries />);
    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('link', { name: 'pay_2' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'pay_1' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(listed().filter((q) => q.status === 'failed')).toEqual([
      { status: 'failed', limit: '50' },
      { status: 'failed', limit: '50', cursor: 'c2' },
    ]);
  });

  it('tells when the next page could not be loaded', async () => {
    api.on('GET /webhook-deliveries', ({ query }) =>
      query.cursor ? new Failure(503, { code: 'SERVICE_UNAVAILABLE', message: 'The database is not reachable.' }) : page(query.status === 'failed' ? [listedDelivery()] : [], 'c2'),
    );
    render(<Deliveries />);
    await userEvent.click((await screen.findAllByRole('button', { name: 'Load more' }))[1]!);
    expect((await screen.findByRole('alert')).textContent).toContain('The database is not reachable.');
  });

  it('queues a redelivery, says so and reloads the lists', async () => {
    const failed = listedDelivery({ id: 'dlv_9' });
    lists({ failed: [failed] });
    api.on('POST /webhook-deliveries/{id}/redeliver', { ...failed, status: 'pending' });
    render(<Deliveries />);
    await userEvent.click(await screen.findByRole('button', { name: 'Redeliver' }));
    expect((await screen.findByRole('status')).textContent).toContain('A new attempt is queued; it will be made within seconds.');
    await waitFor(() => expect(listed()).toHaveLength(4));
    expect(api.requests('POST /webhook-deliveries/{id}/redeliver')[0]!.params.id).toBe('dlv_9');
  });

  it('opens a delivery on its payload, pretty-printed and copyable, and each attempt’s answer', async () => {
    lists({ retrying: [listedDelivery({ id: 'dlv_1', status: 'pending', attempts: 2 })] });
    api.on('GET /webhook-deliveries/{id}', deliveryDetail());
    const writeText = jest.fn(() => Promise.resolve());
    Object.assign(navigator, { clipboard: { writeText } });
    render(<Deliveries />);
    await userEvent.click(await screen.findByRole('button', { name: 'Details' }));
    const payload = await screen.findByLabelText('Payload');
    const pretty = JSON.stringify(deliveryDetail().body, null, 2);
    expect(payload.textContent).toBe(pretty);
    await userEvent.click(screen.getByRole('button', { name: 'Copy payload' }));
    expect(writeText).toHaveBeenCalledWith(pretty);
    expect(tableRows('Attempts')).toEqual([
      ['1', formatDateSeconds('2024-05-02T13:45:10.000Z'), '500', '84 ms', 'HTTP 500', '{"error":"order not found"}'],
      ['2', formatDateSeconds('2024-05-02T13:46:10.000Z'), 'none', '2000 ms', 'timeout after 2000 ms', '—'],
    ]);
    expect(api.requests('GET /webhook-deliveries/{id}')[0]!.params.id).toBe('dlv_1');
    await userEvent.click(screen.getByRole('button', { name: 'Hide' }));
    expect(screen.queryByLabelText('Payload')).toBeNull();
  });

  it('sends a test event to the delivery’s merchant and shows what the endpoint said', async () => {
    lists({ failed: [listedDelivery({ id: 'dlv_1' })] });
    api.on('GET /webhook-deliveries/{id}', deliveryDetail({ status: 'failed' }));
    const answer: TestEventResult = {
      id: 'evt_t',
      body: { event: 'test.ping' },
      url: 'https://shop.example.com/hook',
      ok: false,
      status_code: 500,
      latency_ms: 42,
      error: null,
      response_excerpt: 'database down',
      sent_at: '2024-05-02T13:45:10.000Z',
    };
    api.on('POST /merchants/{id}/test-event', answer);
    render(<Deliveries />);
    await userEvent.click(await screen.findByRole('button', { name: 'Details' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Send test event' }));
    const result = await screen.findByRole('status', { name: 'Test event result' });
    expect(result.textContent).toContain('Answered HTTP 500 in 42 ms: not 2xx, so a delivery would count it as a failed attempt');
    expect(within(result).getByText('database down')).toBeTruthy();
    expect(api.requests('POST /merchants/{id}/test-event')[0]!.params.id).toBe(listedDelivery().merchant_id);
  });
});
