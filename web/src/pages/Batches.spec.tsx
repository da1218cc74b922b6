import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { tableRows, visit } from '../../test/dom';
import { batchItem, merchant, page, paymentBatch, paymentBatchDetail, paymentDelivery } from '../../test/factories';
import { useFakeApi } from '../../test/fake-api';
import { formatDate } from '../format';
import { BatchDetail } from './BatchDetail';
import { Batches } from './Batches';

const ana = merchant({ id: 'mer_ana', name: 'Escola Aurora' });

describe('the batches list', () => {
  const api = useFakeApi();
  beforeEach(() => {
    visit('/admin/payment-batches');
    api.on('GET /merchants', page([ana]));
  });

  it('lists batches newest first with their merchant, what became of their charges and their status, each linked to its page', async () => {
    api.on(
      'GET /payment-batches',
      page([
        paymentBatch({ id: 'bat_june', description: 'Mensalidades de junho', merchant_id: 'mer_ana', status: 'processing', counts: { created: 40, failed: 0, pending: 60 } }),
        paymentBatch({ id: 'bat_may', description: 'Mensalidades de maio', merchant_id: 'mer_ana' }),
      ]),
    );
    render(<Batches />);
    await screen.findByRole('link', { name: 'Mensalidades de junho' });
    await waitFor(() => expect(tableRows('Batches')[0]![2]).toBe('Escola Aurora'));
    expect(tableRows('Batches').map((row) => row.slice(1))).toEqual([
      ['Mensalidades de junhobat_june', 'Escola Aurora', '100 (40 created · 60 pending)', 'processing'],
      ['Mensalidades de maiobat_may', 'Escola Aurora', '3 (2 created · 1 failed)', 'completed'],
    ]);
    expect(tableRows('Batches')[0]![0]).toBe(formatDate('2024-05-02T13:45:10.000Z'));
    expect(screen.getByRole('link', { name: 'Mensalidades de maio' }).getAttribute('href')).toBe('/admin/payment-batches/bat_may');
    // A batch with failures stands out.
    expect(screen.getByRole('row', { name: /Mensalidades de maio/ }).className).toContain('row-alert');
  });

  it('filters by merchant and status through the URL', async () => {
    api.on('GET /payment-batches', page([]));
    render(<Batches />);
    expect(await screen.findByText('No batches yet. A merchant sends one with POST /v1/payment-batches.')).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('Merchant'), 'mer_ana');
    await userEvent.selectOptions(screen.getByLabelText('Status'), 'completed');
    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(location.search).toBe('?merchant_id=mer_ana&status=completed');
    await waitFor(() => expect(api.requests('GET /payment-batches').at(-1)!.query).toEqual({ merchant_id: 'mer_ana', status: 'completed', limit: '20' }));
    expect(await screen.findByText('No batch matches these filters.')).toBeTruthy();
  });
});

describe('a batch page', () => {
  const api = useFakeApi();
  beforeEach(() => api.on('GET /merchants/{id}', merchant({ id: 'mer_1', name: 'Escola Aurora' })));
  const show = async (detail = paymentBatchDetail({ id: 'bat_may', merchant_id: 'mer_1' })) => {
    api.on('GET /payment-batches/{id}', detail);
    render(<BatchDetail id={detail.id} />);
    await screen.findByRole('heading', { name: /Mensalidades de maio/ });
  };

  it('opens on the refused charges with their error, says so first, and counts every outcome', async () => {
    await show();
    const notice = screen.getByText(/not created\./).closest('.notice')!;
    expect(notice.textContent).toMatch(/^1 of 3 charges was not created\. Each says why below/);
    expect(
      within(screen.getByLabelText('Charges by outcome'))
        .getAllByText(/^\d+$/)
        .map((n) => n.textContent),
    ).toEqual(['3', '2', '1', '0']);
    expect(screen.getByRole('tab', { name: 'Failed (1)' }).getAttribute('aria-selected')).toBe('true');
    expect(tableRows('Charges')).toEqual([['2', 'tuition-2024-05-carla', 'failed', 'PAYMENT_CREATE_FAILEDThe PSP refused the charge: the payer’s document is not accepted.']]);
    expect(await screen.findByRole('link', { name: 'Escola Aurora' })).toBeTruthy();
  });

  it('lists every charge with a link to its payment', async () => {
    const detail = paymentBatchDetail({ id: 'bat_may', merchant_id: 'mer_1' });
    await show(detail);
    await userEvent.click(screen.getByRole('tab', { name: 'All (3)' }));
    expect(tableRows('Charges').map((row) => row.slice(0, 3))).toEqual([
      ['0', 'tuition-2024-05-ana', 'created'],
      ['1', 'tuition-2024-05-bruno', 'created'],
      ['2', 'tuition-2024-05-carla', 'failed'],
    ]);
    const first = detail.items[0]!.paymentId!;
    expect(screen.getByRole('link', { name: first }).getAttribute('href')).toBe(`/admin/payments/${first}`);
  });

  it('shows a batch being made as such, with its charges still pending, and the merchant’s delivery once done', async () => {
    await show(
      paymentBatchDetail({
        id: 'bat_may',
        merchant_id: 'mer_1',
        status: 'processing',
        completedAt: null,
        counts: { created: 1, failed: 0, pending: 1 },
        items: [batchItem({ index: 0 }), batchItem({ index: 1, externalId: 'tuition-2024-05-bruno', status: 'pending', paymentId: undefined })],
        deliveries: [paymentDelivery({ event_type: 'payment_batch.completed' })],
      }),
    );
    expect(screen.queryByText(/not created/)).toBeNull();
    expect(screen.getByText('not yet: charges are still being made')).toBeTruthy();
    expect(screen.getByRole('tab', { name: 'All (2)' }).getAttribute('aria-selected')).toBe('true');
    expect(tableRows('Charges')[1]).toEqual(['1', 'tuition-2024-05-bruno', 'pending', 'being made']);
    expect(screen.getByText('payment_batch.completed')).toBeTruthy();
  });

  it('shows only the first hundred charges of a large batch, then more on asking', async () => {
    const items = Array.from({ length: 250 }, (_, index) => batchItem({ index, externalId: `tuition-${index}` }));
    await show(paymentBatchDetail({ id: 'bat_may', merchant_id: 'mer_1', counts: { created: 250, failed: 0, pending: 0 }, items }));
    expect(tableRows('Charges')).toHaveLength(100);
    await userEvent.click(screen.getByRole('button', { name: 'Show 100 more of 150' }));
    expect(tableRows('Charges')).toHaveLength(200);
    await userEvent.click(screen.getByRole('button', { name: 'Show 50 more of 50' }));
    expect(tableRows('Charges')).toHaveLength(250);
    expect(screen.queryByRole('button', { name: /more of/ })).toBeNull();
  });
});
