import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tableRows } from '../../test/dom';
import { Failure, useFakeApi } from '../../test/fake-api';
import type { InvariantCheck, InvariantMismatch } from '../types';
import { MoneyInvariantCard } from './money-invariant';
import { Overview } from './Overview';

const STARTED = '2024-05-02T06:00:00.000Z';

function check(overrides: Partial<InvariantCheck> = {}): InvariantCheck {
  return {
    id: 'ick_1',
    trigger: 'daily',
    status: 'completed',
    window_start: '2024-04-25T06:00:00.000Z',
    started_at: STARTED,
    finished_at: '2024-05-02T06:01:10.000Z',
    checked: 240,
    mismatches: 0,
    unverifiable: 0,
    failed: 0,
    error: null,
    lines: [],
    ...overrides,
  };
}

function line(overrides: Partial<InvariantMismatch> = {}): InvariantMismatch {
  return {
    payment_id: 'pay_1',
    merchant_id: 'mer_ana',
    provider: 'sandbox',
    provider_account_id: null,
    field: 'returned',
    gateway_status: 'paid',
    psp_status: 'paid',
    gateway_amount: 0,
    psp_amount: 3,
    note: 'The PSP returned R$ 3.00 more than the gateway’s succeeded refunds record.',
    found_at: '2024-05-02T06:00:30.000Z',
    ...overrides,
  };
}

describe('MoneyInvariantCard (overview)', () => {
  const api = useFakeApi();

  it('puts each mismatch on a line that links to its payment, with both sides and why', async () => {
    const lines = [line(), line({ payment_id: 'pay_2', field: 'received', gateway_status: 'cancelled', gateway_amount: 0, psp_amount: 10.5, note: 'Paid at the PSP.' })];
    api.on('GET /invariant-checks/latest', check({ mismatches: 2, lines }));
    render(<MoneyInvariantCard />);
    await screen.findByRole('table', { name: 'Money invariant mismatches' });
    expect(tableRows('Money invariant mismatches').map(([payment, what, gateway, psp]) => [payment!.split('sandbox')[0], what, gateway, psp])).toEqual([
      ['pay_1', 'Returned', 'R$\u00a00,00', 'R$\u00a03,00'],
      ['pay_2', 'Received', 'R$\u00a00,00', 'R$\u00a010,50'],
    ]);
    expect(screen.getByRole('link', { name: 'pay_2' }).getAttribute('href')).toBe('/admin/payments/pay_2');
    expect(screen.getByText('Paid at the PSP.')).toBeTruthy();
    expect(screen.getByText('2 mismatches.')).toBeTruthy();
  });

  it('is on the overview, above its numbers, where an operator looks first', async () => {
    api.on('GET /invariant-checks/latest', check({ mismatches: 1, lines: [line()] }));
    const period = { payments: 0, paid_count: 0, paid_volume: 0 };
    api.on('GET /stats', {
      generated_at: STARTED,
      today_start: STARTED,
      week_start: STARTED,
      today: period,
      last_7_days: period,
      daily: [],
      by_status: {},
      deliveries: { failed: 0, pending: 0 },
      provider_window_hours: 24,
      providers: [],
    });
    // The overview's notice of payments paid after close (./paid-after-close.tsx): none.
    api.on('GET /payments', { items: [], next_cursor: null });
    render(<Overview />);
    const mismatches = await screen.findByRole('table', { name: 'Money invariant mismatches' });
    const numbers = await screen.findByText('Payments today');
    expect(mismatches.compareDocumentPosition(numbers) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('says when the last check found nothing, and what it could not compare', async () => {
    api.on('GET /invariant-checks/latest', check({ unverifiable: 3, failed: 1 }));
    render(<MoneyInvariantCard />);
    expect(await screen.findByText('the PSPs and the gateway agree on every one.')).toBeTruthy();
    expect(screen.getByText(/3 could not be fully compared/).textContent).toMatch(/1 could not be read from the PSP this time/);
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('runs a check now, follows it while it runs, then shows what it found', async () => {
    jest.useFakeTimers({ advanceTimers: true });
    try {
      api.on('GET /invariant-checks/latest', new Failure(404, { code: 'NOT_FOUND', message: 'No invariant check has run yet.' }));
      render(<MoneyInvariantCard />);
      expect(await screen.findByText(/No check has run yet/)).toBeTruthy();

      api.on('POST /invariant-checks', check({ trigger: 'operator', status: 'running', finished_at: null, checked: 0 }));
      api.on('GET /invariant-checks/latest', check({ trigger: 'operator', status: 'running', finished_at: null, checked: 12 }));
      await userEvent.click(screen.getByRole('button', { name: 'Run check now' }));
      expect(api.requests('POST /invariant-checks')).toHaveLength(1);
      expect((await screen.findByText(/running, 0 payments compared so far/)).textContent).toMatch(/^Check started/);
      expect(screen.getByRole('button', { name: /Checking/ })).toHaveProperty('disabled', true);

      await act(async () => {
        await jest.advanceTimersByTimeAsync(2000);
      });
      expect(await screen.findByText(/running, 12 payments compared so far/)).toBeTruthy();

      api.on('GET /invariant-checks/latest', check({ trigger: 'operator', mismatches: 1, lines: [line()] }));
      await act(async () => {
        await jest.advanceTimersByTimeAsync(2000);
      });
      expect(await screen.findByRole('link', { name: 'pay_1' })).toBeTruthy();
      const polls = api.requests('GET /invariant-checks/latest').length;
      await act(async () => {
        await jest.advanceTimersByTimeAsync(6000);
      });
      expect(api.requests('GET /invariant-checks/latest')).toHaveLength(polls); // finished: no more reads
      expect(screen.getByRole('button', { name: 'Run check now' })).toHaveProperty('disabled', false);
    } finally {
      jest.useRealTimers();
    }
  });

  it('shows the refusal in words when a check is already running, and reads the card again', async () => {
    api.on('GET /invariant-checks/latest', check());
    render(<MoneyInvariantCard />);
    await screen.findByText('the PSPs and the gateway agree on every one.');
    api.on(
      'POST /invariant-checks',
      new Failure(409, { code: 'CONFLICT', message: 'An invariant check is already running: ick_2, started at 2024-05-02T07:00:00.000Z. Wait for it to finish.' }),
    );
    api.on('GET /invariant-checks/latest', check({ id: 'ick_2', status: 'running', finished_at: null, checked: 5 }));
    await userEvent.click(screen.getByRole('button', { name: 'Run check now' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/already running: ick_2/);
    expect(await screen.findByText(/running, 5 payments compared so far/)).toBeTruthy();
  });

  it('says why a run ended early', async () => {
    api.on('GET /invariant-checks/latest', check({ status: 'failed', error: 'Stopped: the gateway shut down before the run read every payment.', checked: 40 }));
    render(<MoneyInvariantCard />);
    const notice = await screen.findByText(/ended early/);
    expect(within(notice.closest('.notice')!).getByText(/Stopped: the gateway shut down/)).toBeTruthy();
  });
});
