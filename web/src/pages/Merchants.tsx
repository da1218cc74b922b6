import { useEffect, useState } from 'react';
import { api, query } from '../api';
import { formatDate } from '../format';
import { Link, navigate, useLocation } from '../router';
import type { Merchant, Page } from '../types';
import { Badge, Button, Empty, FormModal, LoadMore, Notice, PageHeader, SecretReveal, Spinner, onSubmit, useLoad, useLoadMore, useSubmit } from '../ui';
import { apiFieldErrors, MerchantFields, useMerchantForm, validateMerchant } from './merchant-form';
import { builtInProviders, useCatalogue } from './provider-account-form';

export function Merchants() {
  const { search } = useLocation();
  const q = search.get('q') ?? '';
  const [term, setTerm] = useState(q);
  const [creating, setCreating] = useState(false);
  const { data, error, loading } = useLoad(() => api<Page<Merchant>>('GET', `/merchants${query({ q, limit: 25 })}`), [q]);
  const pages = useLoadMore(data, (cursor) => api<Page<Merchant>>('GET', `/merchants${query({ q, limit: 25, cursor })}`));

  // Search as the operator types, once they pause.
  useEffect(() => {
    if (term === q) return;
    const timer = setTimeout(() => navigate(`/admin/merchants${query({ q: term.trim() })}`, { replace: true }), 300);
    return () => clearTimeout(timer);
  }, [term, q]);

  const merchants = pages.items;
  return (
    <>
      <PageHeader
        title="Merchants"
        actions={
          <Button kind="primary" onClick={() => setCreating(true)}>
            New merchant
          </Button>
        }
      />
      <form className="toolbar" role="search" onSubmit={onSubmit(() => navigate(`/admin/merchants${query({ q: term.trim() })}`, { replace: true }))}>
        <label className="sr-only" htmlFor="merchant-search">
          Search merchants
        </label>
        <input id="merchant-search" type="search" placeholder="Search by name or merchant id" value={term} onChange={(e) => setTerm(e.target.value)} />
      </form>
      <Notice>{error}</Notice>
      {loading && !data && <Spinner />}
      {data && merchants.length === 0 && <Empty>{q ? `No merchant matches “${q}”.` : 'No merchants yet. Create the first one to issue it an API key.'}</Empty>}
      {merchants.length > 0 && (
        <div className="card card-flush">
          <table className="table table-cards">
            <thead>
              <tr>
                <th>Name</th>
                <th>Status</th>
                <th>Webhook URL</th>
                <th>Provider</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {merchants.map((m) => (
                <tr key={m.id} className="row-link" onClick={() => navigate(`/admin/merchants/${m.id}`)}>
                  <td data-label="Name">
                    <div className="cell-stack">
                      <Link to={`/admin/merchants/${m.id}`} className="strong">
                        {m.name}
                      </Link>
                      <div className="mono muted small">{m.id}</div>
                    </div>
                  </td>
                  <td data-label="Status">
                    <Badge value={m.active ? 'active' : 'inactive'} />
                  </td>
                  <td data-label="Webhook URL">
                    <span className="truncate">{m.webhook_url ?? <span className="muted">none</span>}</span>
                  </td>
                  <td data-label="Provider">{m.provider ?? <span className="muted">default</span>}</td>
                  <td data-label="Created">{formatDate(m.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <LoadMore pages={pages} />
      {creating && <CreateMerchant onClose={() => setCreating(false)} />}
    </>
  );
}

function CreateMerchant({ onClose }: { onClose: () => void }) {
  const { values, setValues } = useMerchantForm();
  const [generateSecret, setGenerateSecret] = useState(true);
  const [refundAfterClose, setRefundAfterClose] = useState(false);
  const [created, setCreated] = useState<Merchant>();
  const catalogue = useCatalogue();
  const form = useSubmit({
    check: () => validateMerchant(values),
    send: async () => {
      const merchant = await api<Merchant>('POST', '/merchants', {
        name: values.name.trim(),
        ...(values.display_name.trim() ? { display_name: values.display_name.trim() } : {}),
        ...(values.brand_color.trim() ? { brand_color: values.brand_color.trim() } : {}),
        ...(values.webhook_url.trim() ? { webhook_url: values.webhook_url.trim() } : {}),
        ...(values.provider.trim() ? { provider: values.provider.trim() } : {}),
        ...(generateSecret ? { webhook_signing_secret: 'generate' } : {}),
        ...(refundAfterClose ? { refund_after_close: true } : {}),
      });
      if (merchant.webhook_signing_secret) setCreated(merchant);
      else navigate(`/admin/merchants/${merchant.id}`);
    },
    fieldErrors: apiFieldErrors,
  });

  if (created) {
    return (
      <SecretReveal
        title={`${created.name} created: webhook signing secret`}
        what="signing secret"
        value={created.webhook_signing_secret!}
        onClose={() => navigate(`/admin/merchants/${created.id}`)}
      />
    );
  }
  return (
    <FormModal id="create-merchant" title="New merchant" submitLabel="Create merchant" form={form} onClose={onClose}>
      <MerchantFields idPrefix="new-merchant" values={values} errors={form.errors} onChange={setValues} providers={builtInProviders(catalogue.data)} />
      <label className="checkbox">
        <input type="checkbox" checked={generateSecret} onChange={(e) => setGenerateSecret(e.target.checked)} />
        Generate a webhook signing secret (shown once), so the merchant can verify the events it receives
      </label>
      <label className="checkbox">
        <input type="checkbox" checked={refundAfterClose} onChange={(e) => setRefundAfterClose(e.target.checked)} />
        Refund money received after close automatically (a Pix paid after its payment was cancelled or expired)
      </label>
    </FormModal>
  );
}
