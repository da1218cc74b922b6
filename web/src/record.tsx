import { ReactNode, useState } from 'react';
import { api } from './api';
import { Link } from './router';
import { Badge, Button, Card, Confirm, FieldErrors, Notice, PageHeader, Spinner, messageOf, useLoad, useSubmit } from './ui';

/**
 * One record's page (a merchant, a provider account): the record read from `collection` by `id`, and
 * the page's own changes to it. `run` names the button it runs for, so that one shows it is busy, and
 * turns a failure into words; `patch` sends a change and shows the record as the API returns it.
 * What came of the last change is in `notices`, for the top of the page.
 */
export function useRecord<T extends { id: string }>(collection: string, id: string) {
  const record = useLoad(() => api<T>('GET', `${collection}/${encodeURIComponent(id)}`), [collection, id]);
  const [busy, setBusy] = useState<string>();
  const [done, setDone] = useState<string>();
  const [failure, setFailure] = useState<string>();

  const run = async (name: string, action: () => Promise<unknown>) => {
    setBusy(name);
    setFailure(undefined);
    setDone(undefined);
    try {
      await action();
    } catch (e) {
      setFailure(messageOf(e));
    } finally {
      setBusy(undefined);
    }
  };

  /** Only once the record is loaded: the page offers no change before. */
  const patch = async (body: Record<string, unknown>, message: string) => {
    const updated = await api<T>('PATCH', `${collection}/${record.data!.id}`, body);
    record.setData(updated);
    setDone(message);
    setFailure(undefined);
    return updated;
  };

  const notices = (
    <>
      <Notice kind="success" onClose={() => setDone(undefined)}>
        {done}
      </Notice>
      <Notice onClose={() => setFailure(undefined)}>{failure}</Notice>
    </>
  );
  return { ...record, busy, run, patch, setDone, notices };
}

type RecordPage = Pick<ReturnType<typeof useRecord<{ id: string; name: string; active: boolean }>>, 'data' | 'busy' | 'run' | 'patch' | 'notices'>;

/**
 * A loaded record's heading: the way back to its `list`, its name, whether it is active, its id; the
 * page's `actions`, then Deactivate, once `deactivate.title` is confirmed (`deactivate.explain` says
 * what it does; `deactivate.done` once done), or Reactivate (`reactivated` once done). Below it, what
 * came of the page's last change.
 */
export function RecordHeader({
  page,
  list,
  actions,
  deactivate,
  reactivated,
}: {
  page: RecordPage;
  list: { to: string; label: string };
  actions?: ReactNode;
  deactivate: { title: string; explain: ReactNode; done: string };
  reactivated: string;
}) {
  const [confirming, setConfirming] = useState(false);
  const { data: record, busy, run, patch } = page;
  if (!record) return null;
  return (
    <>
      <div className="crumbs">
        <Link to={list.to}>{list.label}</Link> / <span>{record.name}</span>
      </div>
      <PageHeader
        title={
          <>
            {record.name} <Badge value={record.active ? 'active' : 'inactive'} />
          </>
        }
        subtitle={<span className="mono">{record.id}</span>}
        actions={
          <>
            {actions}
            {record.active ? (
              <Button kind="danger" onClick={() => setConfirming(true)}>
                Deactivate
              </Button>
            ) : (
              <Button kind="primary" busy={busy === 'reactivate'} onClick={() => void run('reactivate', () => patch({ active: true }, reactivated))}>
                Reactivate
              </Button>
            )}
          </>
        }
      />
      {page.notices}
      {confirming && (
        <Confirm title={deactivate.title} confirmLabel="Deactivate" onClose={() => setConfirming(false)} onConfirm={() => patch({ active: false }, deactivate.done)}>
          {deactivate.explain}
        </Confirm>
      )}
    </>
  );
}

/** A record's page before it has the record: a spinner, or why it could not be read and the way back to the list. */
export function RecordUnloaded({ title, error, back }: { title: string; error?: string; back: { to: string; label: string } }) {
  if (!error) return <Spinner />;
  return (
    <>
      <PageHeader title={title} />
      <Notice>{error}</Notice>
      <Link to={back.to}>{back.label}</Link>
    </>
  );
}

/**
 * A record's settings, edited in place. Only the `keys` changed are sent, trimmed, an emptied one as
 * null (the name is never empty: `check` asks for it). A refusal stays on the form: `failureText` at
 * the top, `fieldErrors` beside the fields. `children` go below the buttons.
 */
export function SettingsCard<K extends string, V extends Record<K, string> & { name: string }, E extends FieldErrors>({
  label,
  original,
  keys,
  check,
  fieldErrors,
  failureText,
  onSave,
  fields,
  children,
}: {
  label: string;
  original: V;
  keys: readonly K[];
  check: (values: V) => E;
  fieldErrors: (error: unknown) => E;
  failureText?: (error: unknown) => string;
  onSave: (body: Record<string, unknown>) => Promise<unknown>;
  fields: (values: V, errors: E, onChange: (values: V) => void) => ReactNode;
  children?: ReactNode;
}) {
  const [values, setValues] = useState(original);
  const changed = keys.filter((key) => values[key].trim() !== original[key]);
  const form = useSubmit({
    check: () => check(values),
    ready: changed.length > 0,
    send: () => onSave(Object.fromEntries(changed.map((key) => [key, key === 'name' ? values.name.trim() : values[key].trim() || null]))),
    fieldErrors,
    failureText,
  });

  return (
    <Card title="Settings">
      <form onSubmit={form.onSubmit} noValidate aria-label={label}>
        <Notice>{form.failure}</Notice>
        {fields(values, form.errors, setValues)}
        <div className="button-row">
          <Button kind="primary" type="submit" busy={form.busy} disabled={changed.length === 0}>
            Save changes
          </Button>
          {changed.length > 0 && (
            <Button kind="ghost" onClick={() => setValues(original)}>
              Discard
            </Button>
          )}
        </div>
        {children}
      </form>
    </Card>
  );
}
