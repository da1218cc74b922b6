import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { attempt, listedDelivery, minutesFromNow } from '../../test/factories';
import { deferred, Failure, useFakeApi } from '../../test/fake-api';
import { formatDateSeconds } from '../format';
import { AttemptsTable, deliveryState, lastResult, RedeliverButton, TestEvent } from './delivery-bits';

describe('deliveryState', () => {
  it('says when a delivery arrived, or how many attempts it took to give up', () => {
    const deliveredAt = '2024-05-02T13:45:10.000Z';
    expect(deliveryState({ status: 'delivered', delivered_at: deliveredAt, next_attempt_at: deliveredAt }, 1)).toBe(`Delivered ${formatDateSeconds(deliveredAt)}`);
    expect(deliveryState({ status: 'failed', next_attempt_at: deliveredAt }, 1)).toBe('Gave up after 1 attempt');
    expect(deliveryState({ status: 'failed', next_attempt_at: deliveredAt }, 8)).toBe('Gave up after 8 attempts');
  });

  it('says which attempt comes next, and when', () => {
    expect(deliveryState({ status: 'pending', next_attempt_at: minutesFromNow(5) }, 0)).toBe('First attempt in 5 min');
    expect(deliveryState({ status: 'pending', next_attempt_at: minutesFromNow(5) }, 2)).toBe('Attempt 3 in 5 min');
  });
});

describe('lastResult', () => {
  it('combines the status code and the error without saying the code twice', () => {
    expect(lastResult({ last_status_code: 503, last_error: 'timeout after 10000 ms' })).toBe('HTTP 503: timeout after 10000 ms');
    expect(lastResult({ last_status_code: 503, last_error: 'HTTP 503 Service Unavailable' })).toBe('HTTP 503 Service Unavailable');
    expect(lastResult({ last_status_code: 410, last_error: null })).toBe('HTTP 410');
    expect(lastResult({ last_status_code: null, last_error: 'connection refused' })).toBe('connection refused');
    expect(lastResult({})).toBe('—');
  });
});

describe('AttemptsTable', () => {
  it('says when nothing was tried yet', () => {
    render(<AttemptsTable attempts={[]} />);
    expect(screen.getByText('No attempt yet.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('lists each attempt with its status code, latency and error', () => {
    render(
      <AttemptsTable
        attempts={[attempt({ attempt: 1, status_code: null, latency_ms: null, error: 'connection refused' }), attempt({ attempt: 2, status_code: 200, latency_ms: 84 })]}
      />,
    );
    const [, first, second] = within(screen.getByRole('table', { name: 'Attempts' })).getAllByRole('row');
    expect(
      within(first!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['1', formatDateSeconds(attempt().attempted_at), 'none', '—', 'connection refused']);
    expect(
      within(second!)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['2', formatDateSeconds(attempt().attempted_at), '200', '84 ms', '—']);
  });
});

describe('RedeliverButton', () => {
  const api = useFakeApi();

  it('queues a new attempt of that delivery and says so', async () => {
    const answer = deferred<ReturnType<typeof listedDelivery>>();
    api.on('POST /webhook-deliveries/{id}/redeliver', () => answer.promise);
    const onDone = jest.fn();
    render(<RedeliverButton delivery={{ id: 'dlv_1' }} onDone={onDone} />);
    await userEvent.click(screen.getByRole('button', { name: 'Redeliver' }));
    expect(screen.getByRole('button', { name: 'Redeliver' })).toHaveProperty('disabled', true);
    answer.resolve(listedDelivery({ id: 'dlv_1', status: 'pending' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('A new attempt is queued; it will be made within seconds.', true));
    expect(api.requests('POST /webhook-deliveries/{id}/redeliver').map((r) => r.params.id)).toEqual(['dlv_1']);
    expect(screen.getByRole('button', { name: 'Redeliver' })).toHaveProperty('disabled', false);
  });

  it("passes on the gateway's refusal in words", async () => {
    api.on('POST /webhook-deliveries/{id}/redeliver', new Failure(404, { code: 'NOT_FOUND', message: 'No delivery dlv_1.' }));
    const onDone = jest.fn();
    render(<RedeliverButton delivery={{ id: 'dlv_1' }} onDone={onDone} />);
    await userEvent.click(screen.getByRole('button', { name: 'Redeliver' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('No delivery dlv_1.', false));
  });
});

describe('TestEvent', () => {
  const api = useFakeApi();

  it('says why no answer came, and what the API refused', async () => {
    api.on('POST /merchants/{id}/test-event', {
      id: 'evt_t',
      body: {},
      url: 'http://127.0.0.1:9/hook',
      ok: false,
      status_code: null,
      latency_ms: 3,
      error: 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9',
      response_excerpt: null,
      sent_at: '2024-05-02T13:45:10.000Z',
    });
    render(<TestEvent merchantId="mer_1" merchantName="Loja da Ana" />);
    expect(screen.getByText("One test.ping event to Loja da Ana's webhook URL, sent as deliveries are (signed when a secret is set); not stored, never retried.")).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Send test event' }));
    expect((await screen.findByRole('status', { name: 'Test event result' })).textContent).toContain('No answer in 3 ms: ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9');

    api.on('POST /merchants/{id}/test-event', new Failure(404, { code: 'NOT_FOUND', message: 'Merchant not found.' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send test event' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Merchant not found.');
    expect(screen.queryByRole('status', { name: 'Test event result' })).toBeNull();
  });
});
