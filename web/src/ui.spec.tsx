import { act, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { deferred } from '../test/fake-api';
import { ApiError } from './api';
import { Badge, Button, Card, Confirm, CopyButton, Field, FormModal, Modal, Notice, PageHeader, SecretReveal, messageOf, useLoad, useSubmit } from './ui';

describe('Notice', () => {
  it('announces an error as an alert and anything else as a status', () => {
    render(
      <>
        <Notice>The payment could not be read.</Notice>
        <Notice kind="success">Changes saved.</Notice>
      </>,
    );
    expect(screen.getByRole('alert').textContent).toBe('The payment could not be read.');
    expect(screen.getByRole('status').textContent).toBe('Changes saved.');
  });

  it('shows nothing when there is nothing to say', () => {
    const { container } = render(<Notice>{undefined}</Notice>);
    expect(container.textContent).toBe('');
  });

  it('can be dismissed when it offers to be', async () => {
    const onClose = jest.fn();
    render(<Notice onClose={onClose}>Changes saved.</Notice>);
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

describe('Badge, Button, Field, PageHeader, Card', () => {
  it('writes a status in words, or the label given', () => {
    render(
      <>
        <Badge value="amount_mismatch" />
        <Badge value="revoked" label="revoked yesterday" />
      </>,
    );
    expect(screen.getByText('amount mismatch')).toBeTruthy();
    expect(screen.getByText('revoked yesterday')).toBeTruthy();
  });

  it('disables a busy button and says it is busy', async () => {
    const onClick = jest.fn();
    render(
      <Button busy onClick={onClick}>
        Save
      </Button>,
    );
    const button = screen.getByRole('button', { name: 'Save' });
    expect(button).toHaveProperty('disabled', true);
    expect(button.getAttribute('aria-busy')).toBe('true');
    await userEvent.click(button);
    expect(onClick).not.toHaveBeenCalled();
  });

  it('labels its input, and shows the error in place of the hint', () => {
    const { rerender } = render(
      <Field label="Name" htmlFor="name" hint="As the merchant calls itself.">
        <input id="name" />
      </Field>,
    );
    expect(screen.getByLabelText('Name')).toBeTruthy();
    expect(screen.getByText('As the merchant calls itself.')).toBeTruthy();
    rerender(
      <Field label="Name" htmlFor="name" hint="As the merchant calls itself." error="Give the merchant a name.">
        <input id="name" />
      </Field>,
    );
    expect(screen.getByText('Give the merchant a name.')).toBeTruthy();
    expect(screen.queryByText('As the merchant calls itself.')).toBeNull();
  });

  it('gives a page its main heading and a card its section heading', () => {
    render(
      <>
        <PageHeader title="Payments" subtitle="Newest first." actions={<Button>Refresh</Button>} />
        <Card title="Details">Body</Card>
      </>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Payments' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Details' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy();
  });
});

describe('Modal and Confirm', () => {
  it('is a dialog named by its title, closed by its button or Esc', async () => {
    const onClose = jest.fn();
    render(
      <Modal title="New merchant" onClose={onClose}>
        <p>Form</p>
      </Modal>,
    );
    expect(screen.getByRole('dialog', { name: 'New merchant' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await userEvent.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('closes once the confirmed change is done', async () => {
    const onConfirm = jest.fn().mockResolvedValue(undefined);
    const onClose = jest.fn();
    render(
      <Confirm title="Revoke this key?" confirmLabel="Revoke key" onConfirm={onConfirm} onClose={onClose}>
        It stops working at once.
      </Confirm>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Revoke key' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('stays open and tells why when the change fails', async () => {
    const onClose = jest.fn();
    const onConfirm = () => Promise.reject(new ApiError(404, 'NOT_FOUND', 'That key is already revoked.'));
    render(
      <Confirm title="Revoke this key?" confirmLabel="Revoke key" onConfirm={onConfirm} onClose={onClose}>
        It stops working at once.
      </Confirm>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Revoke key' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That key is already revoked.');
    expect(screen.getByRole('button', { name: 'Revoke key' })).toHaveProperty('disabled', false);
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('CopyButton and SecretReveal', () => {
  it('copies its text and says so', async () => {
    const user = userEvent.setup();
    render(<CopyButton text="whsec_abc" />);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe('whsec_abc');
    expect(screen.getByRole('button', { name: 'Copied ✓' })).toBeTruthy();
  });

  it('asks to copy by hand when the browser refuses', async () => {
    const user = userEvent.setup();
    jest.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new Error('denied'));
    render(<CopyButton text="whsec_abc" />);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(screen.getByRole('button', { name: 'Select and copy' })).toBeTruthy();
  });

  it('shows a secret once, with a warning that it will not be shown again', async () => {
    const onClose = jest.fn();
    render(<SecretReveal title="New API key" what="API key" value="mk_live_AbCd1234" onClose={onClose} />);
    const dialog = screen.getByRole('dialog', { name: 'New API key' });
    expect(dialog.textContent).toContain('mk_live_AbCd1234');
    expect(dialog.textContent).toContain('Copy this API key now. It will not be shown again.');
    await userEvent.click(screen.getByRole('button', { name: 'I have stored it safely' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('says what the gateway keeps of each: a hash of a key, a signing secret encrypted (it signs with it)', () => {
    const { unmount } = render(<SecretReveal title="New API key" what="API key" value="mk_live_AbCd1234" onClose={jest.fn()} />);
    expect(screen.getByRole('dialog').textContent).toContain('keeps only a hash of it');
    unmount();
    render(<SecretReveal title="New webhook signing secret" what="signing secret" value="whsec_abc" onClose={jest.fn()} />);
    const text = screen.getByRole('dialog').textContent;
    expect(text).toContain('keeps it encrypted, to sign the events it sends');
    expect(text).not.toContain('fingerprint');
  });
});

describe('messageOf', () => {
  it("passes on the API's sentence and hides anything else behind a plain one", () => {
    expect(messageOf(new ApiError(400, 'VALIDATION_ERROR', 'Please check: name is too long.'))).toBe('Please check: name is too long.');
    expect(messageOf(new TypeError('x is undefined'))).toBe('Something unexpected happened in the dashboard. Reload the page and try again.');
  });
});

describe('useLoad', () => {
  it('is loading, then has the data', async () => {
    const { result } = renderHook(() => useLoad(() => Promise.resolve(['a']), []));
    expect(result.current.loading).toBe(true);
    await waitFor(() => expect(result.current.data).toEqual(['a']));
    expect(result.current.loading).toBe(false);
  });

  it('turns a failure into words', async () => {
    const { result } = renderHook(() => useLoad(() => Promise.reject(new ApiError(0, 'NETWORK', 'The gateway could not be reached.')), []));
    await waitFor(() => expect(result.current.error).toBe('The gateway could not be reached.'));
    expect(result.current.data).toBeUndefined();
  });

  it('keeps the answer to the latest request when an older one arrives late', async () => {
    const slow = deferred<string>();
    const { result, rerender } = renderHook(({ q }) => useLoad(() => (q === 'old' ? slow.promise : Promise.resolve('new')), [q]), { initialProps: { q: 'old' } });
    rerender({ q: 'new' });
    await waitFor(() => expect(result.current.data).toBe('new'));
    await act(async () => slow.resolve('old'));
    expect(result.current.data).toBe('new');
  });
});

describe('useSubmit', () => {
  const refusal = new ApiError(400, 'VALIDATION_ERROR', 'Please check: name is too long.', [{ field: 'name', message: 'name is too long' }]);

  it('checks first, and sends nothing while a problem is found or the form is not ready', async () => {
    const send = jest.fn().mockResolvedValue(undefined);
    const { result, rerender } = renderHook(({ name, ready }) => useSubmit({ check: () => (name ? {} : { name: 'Give a name.' }), ready, send }), {
      initialProps: { name: '', ready: true },
    });
    await act(() => result.current.submit());
    expect(result.current.errors).toEqual({ name: 'Give a name.' });
    rerender({ name: 'Loja', ready: false });
    await act(() => result.current.submit());
    expect(result.current.errors).toEqual({});
    expect(send).not.toHaveBeenCalled();
    rerender({ name: 'Loja', ready: true });
    await act(() => result.current.submit());
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('is busy while it sends, and no longer once the answer is in', async () => {
    const answer = deferred<void>();
    const { result } = renderHook(() => useSubmit({ send: () => answer.promise }));
    let sent!: Promise<void>;
    act(() => {
      sent = result.current.submit();
    });
    expect(result.current.busy).toBe(true);
    await act(async () => {
      answer.resolve();
      await sent;
    });
    expect(result.current.busy).toBe(false);
    expect(result.current.failure).toBeUndefined();
  });

  it('keeps a refusal in words and beside its fields, until the next attempt or reset', async () => {
    let refuse = true;
    const send = () => (refuse ? Promise.reject(refusal) : Promise.resolve());
    const { result } = renderHook(() => useSubmit({ send, fieldErrors: (e) => (e instanceof ApiError ? { name: e.fieldMessage('name') } : {}) }));
    await act(() => result.current.submit());
    expect(result.current.failure).toBe('Please check: name is too long.');
    expect(result.current.errors).toEqual({ name: 'name is too long' });
    expect(result.current.busy).toBe(false);
    act(() => result.current.reset());
    expect(result.current.failure).toBeUndefined();
    expect(result.current.errors).toEqual({});
    await act(() => result.current.submit());
    refuse = false;
    await act(() => result.current.submit());
    expect(result.current.failure).toBeUndefined();
  });

  it('says something plain for anything that is not an answer of the API, or what failureText says', async () => {
    const { result } = renderHook(() => useSubmit({ send: () => Promise.reject(new TypeError('x is undefined')) }));
    await act(() => result.current.submit());
    expect(result.current.failure).toBe(messageOf(new TypeError('x is undefined')));
    const custom = renderHook(() => useSubmit({ send: () => Promise.reject(refusal), failureText: () => 'Refused.' }));
    await act(() => custom.result.current.submit());
    expect(custom.result.current.failure).toBe('Refused.');
  });
});

describe('FormModal', () => {
  function NewMerchant({ send, onClose }: { send: () => Promise<unknown>; onClose: () => void }) {
    const form = useSubmit({ send });
    return (
      <FormModal id="new-merchant" title="New merchant" submitLabel="Create merchant" form={form} onClose={onClose}>
        <Field label="Name" htmlFor="name">
          <input id="name" />
        </Field>
      </FormModal>
    );
  }

  it('submits its form from the button below it, and shows a refusal as an alert at the top', async () => {
    const send = jest.fn().mockRejectedValue(new ApiError(409, 'CONFLICT', 'That name is taken.'));
    const onClose = jest.fn();
    render(<NewMerchant send={send} onClose={onClose} />);
    const dialog = within(screen.getByRole('dialog', { name: 'New merchant' }));
    expect(dialog.getByLabelText('Name')).toBeTruthy();
    await userEvent.click(dialog.getByRole('button', { name: 'Create merchant' }));
    expect(send).toHaveBeenCalledTimes(1);
    const alert = await dialog.findByRole('alert');
    expect(alert.textContent).toBe('That name is taken.');
    expect(alert.closest('form')!.id).toBe('new-merchant');
    expect(dialog.getByRole('button', { name: 'Create merchant' })).toHaveProperty('disabled', false);
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
