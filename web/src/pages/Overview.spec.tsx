import { render, screen, within } from '@testing-library/react';
import { page, payment } from '../../test/factories';
import { Failure, useFakeApi } from '../../test/fake-api';
import type { Stats } from '../types';
import { Overview } from './Overview';

const DAY = '2024-05-02T03:00:00.000Z';

function stats(byStatus: Stats['by_status']): Stats {
  const period = { payments: 12, paid_count: 8, paid_volume: 84 };
  return {
    generated_at: DAY,
    today_start: DAY,
    week_start: DAY,
    today: period,
    last_7_days: period,
    daily: [{ day_start: DAY, ...period }],
    by_status: byStatus,
    deliveries: { failed: 0, pending: 0 },
    provider_window_hours: 24,
    providers: [],
  };
}

describe('Overview', () => {
  const api = useFakeApi();
  // The money invariant card reads its own route (./money-invariant.spec.tsx): no run yet.
  beforeEach(() => {
    api.on('GET /invariant-checks/latest', new Failure(404, { code: 'NOT_FOUND', message: 'No invariant check has run yet.' }));
    // Payments paid after close that still hold the money (./paid-after-close.tsx): none.
    api.on('GET /payments', page([]));
  });

  it('puts the payments paid after close that still hold the money first, linked to their list', async () => {
    api.on('GET /stats', stats({ pending: 0, paid: 2, expired: 0, cancelled: 0, failed: 0, partially_refunded: 0, refunded: 0 }));
    api.on('GET /payments', page([payment({ status: 'paid', paidAfterClose: true }), payment({ status: 'paid', paidAfterClose: true })]));
    render(<Overview />);
    const notice = (await screen.findByText(/Action needed: refund them/)).closest<HTMLElement>('.notice')!;
    expect(notice.className).toBe('notice notice-warning');
    expect(notice.textContent).toContain('2 payments received a Pix after they were cancelled or expired');
    expect(within(notice).getByRole('link', { name: 'See them' }).getAttribute('href')).toBe('/admin/payments?status=paid&paid_after_close=true');
    expect(api.requests('GET /payments').map((r) => r.query)).toEqual([{ paid_after_close: 'true', status: 'paid', limit: '100' }]);
  });

  it('says nothing of it when there is none', async () => {
    api.on('GET /stats', stats({ pending: 0, paid: 2, expired: 0, cancelled: 0, failed: 0, partially_refunded: 0, refunded: 0 }));
    render(<Overview />);
    await screen.findByRole('heading', { name: 'Payments by status (7 days)' });
    expect(screen.queryByText(/refund them/)).toBeNull();
  });

  it('breaks payments down by every status, refunded ones included, each a link to the filtered list', async () => {
    api.on('GET /stats', stats({ pending: 2, paid: 5, expired: 1, cancelled: 0, failed: 0, partially_refunded: 3, refunded: 1 }));
    render(<Overview />);
    const card = within((await screen.findByRole('heading', { name: 'Payments by status (7 days)' })).closest('section')!);
    const rows = card.getAllByRole('listitem').map((item) => [item.textContent, within(item).getByRole('link').getAttribute('href')]);
    expect(rows).toEqual([
      ['pending2', '/admin/payments?status=pending'],
      ['paid5', '/admin/payments?status=paid'],
      ['expired1', '/admin/payments?status=expired'],
      ['cancelled0', '/admin/payments?status=cancelled'],
      ['failed0', '/admin/payments?status=failed'],
      ['partially refunded3', '/admin/payments?status=partially_refunded'],
      ['refunded1', '/admin/payments?status=refunded'],
    ]);
    expect(card.getByText('partially refunded').className).toBe('badge badge-violet');
  });
});
