import { useRef, useState } from 'react';
import type { DomainKind } from '@mirror/contract';
import { deleteDomain } from '../../api/domains';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { getErrorMessage } from '../../lib/api-client';
import { useI18n } from '../../lib/i18n';
import { useLoading } from '../../lib/loading';
import { notify } from '../../lib/toast';

interface DeleteDomainButtonProps {
  kind: DomainKind;
  id: string;
  domain: string;
  /** The button's text, and its accessible name naming the domain. */
  label: string;
  ariaLabel: string;
  onDeleted: () => void;
}

/** Removing a domain asks once; confirming deletes it (`DELETE /domains/{kind}/{id}`). */
export function DeleteDomainButton({
  kind,
  id,
  domain,
  label,
  ariaLabel,
  onDeleted,
}: DeleteDomainButtonProps) {
  const { t } = useI18n();
  const { withLoading } = useLoading();
  const [confirming, setConfirming] = useState(false);
  const buttonRef = useRef<HTMLButtonElement>(null);

  const handleDelete = async () => {
    setConfirming(false);
    try {
      await withLoading(deleteDomain(kind, id));
      notify.success(t('domains.delete.deleted', { domain }));
      onDeleted();
    } catch (error) {
      buttonRef.current?.focus();
      notify.error(getErrorMessage(error, t('domains.delete.failed')));
    }
  };

  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className="button button-outline-danger"
        aria-label={ariaLabel}
        onClick={() => setConfirming(true)}
      >
        {label}
      </button>
      {confirming && (
        <ConfirmDialog
          danger
          title={t('domains.delete.confirmTitle')}
          message={t(`domains.delete.confirmMessage.${kind}`, { domain })}
          confirmLabel={t('domains.delete.confirm')}
          cancelLabel={t('domains.delete.keep')}
          onConfirm={() => void handleDelete()}
          onCancel={() => setConfirming(false)}
        />
      )}
    </>
  );
}
