import type { ReactNode } from 'react';
import { Modal } from './modal';

interface ConfirmDialogProps {
  title: string;
  message: string;
  confirmLabel: string;
  cancelLabel: string;
  /** Styles the confirm button as destructive. */
  danger?: boolean;
  /** While true the question cannot be answered yes (what it would do is still loading). */
  confirmDisabled?: boolean;
  /** More about the question, shown above the answers (what confirming will do). */
  children?: ReactNode;
  onConfirm: () => void;
  /** Cancel, Escape, the close button and a click outside all decline. */
  onCancel: () => void;
}

/** A yes/no question in an alert dialog; the safe answer comes first and gets the focus. */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  cancelLabel,
  danger = false,
  confirmDisabled = false,
  children,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  return (
    <Modal role="alertdialog" title={title} description={message} onClose={onCancel}>
      {children}
      <div className="confirm-actions">
        <button type="button" className="button button-outline" onClick={onCancel}>
          {cancelLabel}
        </button>
        <button
          type="button"
          className={`button ${danger ? 'button-danger' : 'button-primary'}`}
          disabled={confirmDisabled}
          onClick={onConfirm}
        >
          {confirmLabel}
        </button>
      </div>
    </Modal>
  );
}
