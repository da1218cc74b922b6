import { act, render, renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { deferred } from '../test/fake-api';
import { ApiError } from './api';
import { Badge, Button, Card, Confirm, CopyButton, Field, Modal, Notice, PageHeader, SecretReveal, messageOf, useLoad } from './ui';

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
