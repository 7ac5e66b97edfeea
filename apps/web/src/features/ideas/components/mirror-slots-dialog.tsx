import { useState } from 'react';
import { Link } from 'react-router';
import type { CloneRecord } from '@mirror/contract';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Modal } from '../../../components/ui/modal';
import { Spinner } from '../../../components/ui/spinner';
import { paths } from '../../../config/paths';
import { getErrorMessage } from '../../../lib/api-client';
import { siteNameOf } from '../../../lib/format';
import { useI18n } from '../../../lib/i18n';

interface MirrorSlotsDialogProps {
  /** The reference the user wants to select. */
  title: string;
  /** The plan's number of mirrored sites, all in use. */
  limit: number;
  /** The account's sites (a claimed demo among them), any of which can make room. */
  sites: CloneRecord[];
  /** Deletes the site; resolves once it is gone. */
  onReplace: (site: CloneRecord) => Promise<void>;
  onClose: () => void;
}

/** The name a site goes by in the account: the address it mirrors. */
export const siteName = (site: Pick<CloneRecord, 'sourceUrl' | 'title'>) => siteNameOf(site).name;

/**
 * Idea mode with every mirror slot of the plan in use (issue 19, item 5): instead of a failed
 * selection, a choice: replace one of the account's sites (deleted after a confirmation, then the
 * reference is selected) or upgrade.
 */
export function MirrorSlotsDialog({
  title,
  limit,
  sites,
  onReplace,
  onClose,
}: MirrorSlotsDialogProps) {
  const { t } = useI18n();
  const [confirming, setConfirming] = useState<CloneRecord | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (confirming) {
    const name = siteName(confirming);
    const replace = async () => {
      setDeleting(true);
      setError(null);
      try {
        await onReplace(confirming);
      } catch (failure) {
        setDeleting(false);
        setError(t('ideas.limit.deleteFailed', { error: getErrorMessage(failure, '') }));
      }
    };
    return (
      <ConfirmDialog
        danger
        title={t('ideas.limit.confirmTitle', { name })}
        message={t('ideas.limit.confirmMessage', { name, title })}
        confirmLabel={t('ideas.limit.confirm')}
        cancelLabel={t('ideas.limit.keep')}
        confirmDisabled={deleting}
        onConfirm={() => void replace()}
        onCancel={() => (deleting ? undefined : setConfirming(null))}
      >
        {deleting && <Spinner />}
        {error && (
          <p className="alert alert-error" role="alert">
            {error}
          </p>
        )}
      </ConfirmDialog>
    );
  }

  return (
    <Modal
      title={t('ideas.limit.title')}
      description={t('ideas.limit.message', { count: limit, title })}
      onClose={onClose}
    >
      <ul className="mirror-slots">
        {sites.map((site) => (
          <li key={site.id}>
            <button
              type="button"
              className="button button-outline-danger"
              onClick={() => setConfirming(site)}
            >
              {t('ideas.limit.replace', { name: siteName(site) })}
            </button>
          </li>
        ))}
      </ul>
      <div className="confirm-actions">
        <button type="button" className="button button-outline" onClick={onClose}>
          {t('ideas.limit.cancel')}
        </button>
        <Link className="button button-primary" to={paths.billing.getHref()}>
          {t('ideas.limit.upgrade')}
        </Link>
      </div>
    </Modal>
  );
}
