import { FormEvent, ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from './api';
import type { Page } from './types';

export function Notice({ kind = 'error', children, onClose }: { kind?: 'error' | 'success' | 'info' | 'warning'; children: ReactNode; onClose?: () => void }) {
  if (!children) return null;
  return (
    <div className={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      <div className="notice-body">{children}</div>
      {onClose && (
        <button type="button" className="notice-close" aria-label="Dismiss" onClick={onClose}>
          ×
        </button>
      )}
    </div>
  );
}

export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div className="spinner" role="status">
      <span className="spinner-dot" aria-hidden="true" />
      {label}
    </div>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty">{children}</div>;
}

const STATUS_TONE: Record<string, string> = {
  pending: 'amber',
  paid: 'green',
  delivered: 'green',
  active: 'green',
  applied: 'green',
  expired: 'gray',
  cancelled: 'gray',
  inactive: 'gray',
  revoked: 'gray',
  ignored: 'gray',
  failed: 'red',
  amount_mismatch: 'red',
  refunded: 'blue',
  partially_refunded: 'violet',
  succeeded: 'green',
  // Recurrences and their charges (docs/dashboard.md, Recurrences).
  pending_authorization: 'amber',
  scheduled: 'amber',
  retrying: 'amber',
  rejected: 'red',
  ended: 'gray',
  // Batches of due-date charges and their items (docs/due-charges.md, Batches).
  processing: 'amber',
  completed: 'green',
  created: 'green',
  // Payment links (docs/dashboard.md, Payment links): `inactive` and `expired` are above.
  open: 'green',
  used_up: 'blue',
};

export function Badge({ value, label }: { value: string; label?: string }) {
  return <span className={`badge badge-${STATUS_TONE[value] ?? 'gray'}`}>{label ?? value.replace(/_/g, ' ')}</span>;
}

export function Button({
  children,
  kind = 'secondary',
  busy = false,
  ...rest
}: {
  children: ReactNode;
  kind?: 'primary' | 'secondary' | 'danger' | 'ghost';
  busy?: boolean;
  ref?: React.Ref<HTMLButtonElement>;
} & React.ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button type="button" className={`btn btn-${kind}`} disabled={busy || rest.disabled} aria-busy={busy || undefined} {...rest}>
      {busy ? <span className="btn-spinner" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

export function Field({ label, hint, error, children, htmlFor }: { label: string; hint?: ReactNode; error?: string; children: ReactNode; htmlFor: string }) {
  return (
    <div className={`field${error ? ' field-invalid' : ''}`}>
      <label htmlFor={htmlFor}>{label}</label>
      {children}
      {error ? (
        <div className="field-error" id={`${htmlFor}-error`}>
          {error}
        </div>
      ) : hint ? (
        <div className="field-hint">{hint}</div>
      ) : null}
    </div>
  );
}

/** A modal on the native <dialog>: focus stays inside, Esc closes it. */
export function Modal({ title, onClose, children, footer }: { title: string; onClose: () => void; children: ReactNode; footer?: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby="modal-title"
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className="modal-head">
        <h2 id="modal-title">{title}</h2>
        <button type="button" className="modal-close" aria-label="Close" onClick={onClose}>
          ×
        </button>
      </div>
      <div className="modal-body">{children}</div>
      {footer && <div className="modal-foot">{footer}</div>}
    </dialog>
  );
}

/** "Are you sure?" for changes that cannot be undone; shows the API's answer if it fails. */
export function Confirm({
  title,
  children,
  confirmLabel,
  danger = true,
  onConfirm,
  onClose,
}: {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
}) {
  const { busy, failure, submit } = useSubmit({
    send: async () => {
      await onConfirm();
      onClose();
    },
  });
  return (
    <Modal
      title={title}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button kind={danger ? 'danger' : 'primary'} busy={busy} onClick={() => void submit()}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
      <Notice>{failure}</Notice>
    </Modal>
  );
}

/** A form in a modal: its refusal at the top, Cancel and the submit button (named `submitLabel`) below it. */
export function FormModal({
  id,
  title,
  submitLabel,
  form,
  onClose,
  children,
}: {
  id: string;
  title: string;
  submitLabel: string;
  form: Pick<Submission, 'busy' | 'failure' | 'onSubmit'>;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Modal
      title={title}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button kind="primary" type="submit" form={id} busy={form.busy}>
            {submitLabel}
          </Button>
        </>
      }
    >
      <form id={id} onSubmit={form.onSubmit} noValidate>
        <Notice>{form.failure}</Notice>
        {children}
      </form>
    </Modal>
  );
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 2500);
  };
  return (
    <Button kind="secondary" onClick={() => void copy()} aria-live="polite">
      {state === 'copied' ? 'Copied ✓' : state === 'failed' ? 'Select and copy' : label}
    </Button>
  );
}

/**
 * What the gateway keeps of each secret it shows once: an API key only as a hash (it need only
 * recognise it), a signing secret encrypted (it must read it back to sign every event).
 */
const KEPT = {
  'API key': 'The gateway keeps only a hash of it, so it cannot show it again; if it is lost, issue a new key.',
  'signing secret': 'The gateway keeps it encrypted, to sign the events it sends, and never shows it again; if it is lost, generate a new one.',
} as const;

/** A secret the gateway shows only once: the value, a copy button, and a warning that says so. */
export function SecretReveal({ title, value, what, onClose }: { title: string; value: string; what: keyof typeof KEPT; onClose: () => void }) {
  return (
    <Modal
      title={title}
      onClose={onClose}
      footer={
        <Button kind="primary" onClick={onClose}>
          I have stored it safely
        </Button>
      }
    >
      <Notice kind="warning">
        <strong>Copy this {what} now. It will not be shown again.</strong> {KEPT[what]}
      </Notice>
      <div className="secret-row">
        <code className="secret" data-testid="revealed-secret" onFocus={(e) => selectAll(e.currentTarget)} tabIndex={0}>
          {value}
        </code>
        <CopyButton text={value} />
      </div>
    </Modal>
  );
}

function selectAll(element: HTMLElement) {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = window.getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

export function messageOf(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return 'Something unexpected happened in the dashboard. Reload the page and try again.';
}

/** Loads data for a page: the value, the error in words, and a reload function. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data?: T; error?: string; loading: boolean; reload: () => Promise<void>; setData: (value: T) => void } {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(true);
  const generation = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++generation.current;
    setLoading(true);
    try {
      const value = await load();
      if (mine !== generation.current) return;
      setData(value);
      setError(undefined);
    } catch (e) {
      if (mine !== generation.current) return;
      setError(messageOf(e));
    } finally {
      if (mine === generation.current) setLoading(false);
    }
    // `load` is a new closure on every render; `deps` says when it means something new.
  }, deps);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, loading, reload, setData };
}

/** Problems found in a form, by the name of the field each is about. */
export type FieldErrors = Partial<Record<string, string>>;

export interface Submission<E extends FieldErrors = FieldErrors> {
  /** Sending: the submit button shows it, and takes no second click. */
  busy: boolean;
  /** Why the last attempt was refused, in words, for a <Notice> at the top of the form. */
  failure?: string;
  /** The problems to show beside their fields: the form's own checks, or the API's. */
  errors: E;
  submit: () => Promise<void>;
  /** `submit` as a <form>'s onSubmit. */
  onSubmit: (event: FormEvent) => void;
  /** Forgets the last refusal (a form opened again starts clean). */
  reset: () => void;
}

/**
 * Submitting a form or a change to the API: the form's own `check` first (nothing is sent while it
 * finds a problem, nor while the form is not `ready`), then `send`. A refusal stays on the form, in
 * words (`failureText`, the API's sentence by default) and, with `fieldErrors`, beside its fields.
 */
export function useSubmit<E extends FieldErrors = FieldErrors>({
  check,
  ready = true,
  send,
  fieldErrors,
  failureText = messageOf,
}: {
  check?: () => E;
  ready?: boolean;
  send: () => Promise<unknown>;
  fieldErrors?: (error: unknown) => E;
  failureText?: (error: unknown) => string;
}): Submission<E> {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [errors, setErrors] = useState<E>({} as E);
  const submit = async () => {
    const problems = check?.() ?? ({} as E);
    setErrors(problems);
    setFailure(undefined);
    if (Object.values(problems).some(Boolean) || !ready) return;
    setBusy(true);
    try {
      await send();
    } catch (e) {
      setErrors(fieldErrors?.(e) ?? ({} as E));
      setFailure(failureText(e));
    } finally {
      setBusy(false);
    }
  };
  const reset = () => {
    setErrors({} as E);
    setFailure(undefined);
  };
  return { busy, failure, errors, submit, onSubmit: onSubmit(() => void submit()), reset };
}

export function PageHeader({ title, subtitle, actions }: { title: ReactNode; subtitle?: ReactNode; actions?: ReactNode }) {
  return (
    <div className="page-head">
      <div>
        <h1>{title}</h1>
        {subtitle && <div className="page-subtitle">{subtitle}</div>}
      </div>
      {actions && <div className="page-actions">{actions}</div>}
    </div>
  );
}

export function Card({ title, actions, children, className }: { title?: ReactNode; actions?: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={`card${className ? ` ${className}` : ''}`}>
      {(title || actions) && (
        <div className="card-head">
          {title && <h2>{title}</h2>}
          {actions && <div className="card-actions">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}

export function onSubmit(handler: () => void) {
  return (event: FormEvent) => {
    event.preventDefault();
    handler();
  };
}

/**
 * A list's first page (from useLoad) and the pages "Load more" appends after it, `next` reading the
 * page at a cursor; a new first page starts the list over. Shown under the list with LoadMore.
 */
export function useLoadMore<T>(first: Page<T> | undefined, next: (cursor: string) => Promise<Page<T>>) {
  const [more, setMore] = useState<T[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();

  useEffect(() => {
    setMore([]);
    setCursor(first?.next_cursor ?? null);
  }, [first]);

  const loadMore = async () => {
    if (!cursor) return;
    setLoading(true);
    try {
      const page = await next(cursor);
      setMore((items) => [...items, ...page.items]);
      setCursor(page.next_cursor);
      setError(undefined);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setLoading(false);
    }
  };

  return { items: [...(first?.items ?? []), ...more], cursor, loading, error, loadMore };
}

/** Under a useLoadMore list: why the last page failed, and Load more while there are pages left. */
export function LoadMore({ pages }: { pages: ReturnType<typeof useLoadMore> }) {
  return (
    <>
      <Notice>{pages.error}</Notice>
      {pages.cursor && (
        <div className="pager">
          <Button onClick={() => void pages.loadMore()} busy={pages.loading}>
            Load more
          </Button>
        </div>
      )}
    </>
  );
}

/** A list's filter form's buttons: Apply (the form's submit), and Clear while any filter is set. */
export function FilterActions({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return (
    <div className="filters-actions">
      <Button kind="primary" type="submit">
        Apply
      </Button>
      {filtered && (
        <Button kind="ghost" onClick={onClear}>
          Clear
        </Button>
      )}
    </div>
  );
}

/**
 * Newer / Older over keyset pages, newest first. `previous` holds the cursors of the pages before
 * this one (the list's own state, so that applying a filter can empty it); `go` opens a cursor's page.
 */
export function Pager({
  previous,
  setPrevious,
  cursor,
  nextCursor,
  go,
}: {
  previous: string[];
  setPrevious: (cursors: string[]) => void;
  cursor: string;
  nextCursor: string | null | undefined;
  go: (cursor: string) => void;
}) {
  return (
    <div className="pager">
      <Button
        disabled={previous.length === 0 && !cursor}
        onClick={() => {
          setPrevious(previous.slice(0, -1));
          go(previous[previous.length - 1] ?? '');
        }}
      >
        ← Newer
      </Button>
      <Button
        disabled={!nextCursor}
        onClick={() => {
          setPrevious([...previous, cursor]);
          go(nextCursor!);
        }}
      >
        Older →
      </Button>
    </div>
  );
}
