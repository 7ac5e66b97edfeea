import { useI18n } from '../../lib/i18n';
import './mirror.css';

interface VersionChangesProps {
  /** Human summary lines of a plan, as the versions call answers them. */
  changes: readonly string[] | undefined;
  /** Parts of the instructions the plan could not use. */
  unparsed?: readonly string[];
}

/** What a customization or rewrite changed, and what it did not understand. */
export function VersionChanges({ changes = [], unparsed = [] }: VersionChangesProps) {
  const { t } = useI18n();
  return (
    <div className="version-changes">
      {changes.length > 0 ? (
        <ul className="version-changes-list" aria-label={t('mirror.changes.title')}>
          {changes.map((line, index) => (
            <li key={index}>{line}</li>
          ))}
        </ul>
      ) : (
        <p className="version-changes-none">{t('mirror.changes.none')}</p>
      )}
      {unparsed.length > 0 && (
        <p className="version-changes-unparsed" role="note">
          {t('mirror.changes.unparsed', { parts: unparsed.join('; ') })}
        </p>
      )}
    </div>
  );
}
