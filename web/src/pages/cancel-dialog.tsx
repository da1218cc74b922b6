import type { ReactNode } from 'react';
import { api, ApiError } from '../api';
import { Button, Modal, Notice, messageOf, useSubmit } from '../ui';

/**
 * "Cancel this …?": POSTs `path` and hands over what it answers. A 409 means the thing moved on
 * meanwhile (a payment paid, a recurrence the payer ended); the page says so and reads it again.
 */
export function CancelDialog<T>({
  title,
  path,
  confirmLabel,
  onClose,
  onCancelled,
  onConflict,
  children,
}: {
  title: string;
  path: string;
  confirmLabel: string;
  onClose: () => void;
  onCancelled: (answer: T) => void;
  onConflict: (message: string) => void;
  children: ReactNode;
}) {
  const send = useSubmit({
    send: async () => {
      try {
        onCancelled(await api<T>('POST', path));
      } catch (error) {
        if (error instanceof ApiError && error.status === 409) return onConflict(messageOf(error));
        throw error;
      }
    },
  });
  return (
    <Modal
      title={title}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose} disabled={send.busy}>
            Keep it
          </Button>
          <Button kind="danger" busy={send.busy} onClick={() => void send.submit()}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {children}
      <Notice>{send.failure}</Notice>
    </Modal>
  );
}
