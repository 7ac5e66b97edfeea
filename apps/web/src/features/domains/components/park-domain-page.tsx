import { useState } from 'react';
import type { ParkedDomain } from '@mirror/contract';
import { Page } from '../../../components/ui/page';
import { useAuth } from '../../../lib/auth-context';
import { useDialogs } from '../../../lib/dialogs';
import { useI18n } from '../../../lib/i18n';
import { ParkDomainForm } from './park-domain-form';
import { ParkResult } from './park-result';
import '../../../components/ui/panel.css';
import './domains.css';

/**
 * SPEC §2 park domain: the form, then a result card; 'Park Another Domain' brings back an empty
 * form. The route is open (SPEC route table), parking needs an account: visitors are asked to log in.
 */
export function ParkDomainPage() {
  const { t } = useI18n();
  const { isLoggedIn } = useAuth();
  const { openDialog } = useDialogs();
  const [parked, setParked] = useState<ParkedDomain | null>(null);
  // A new key mounts a fresh, untouched form.
  const [formKey, setFormKey] = useState(0);

  return (
    <Page
      className="park-page"
      meta={{ title: t('meta.parkDomain.title'), description: t('meta.parkDomain.description') }}
      title={t('parkDomain.title')}
      lead={t('domains.park.lead')}
    >
      {!isLoggedIn ? (
        <div className="panel park-login">
          <p>{t('domains.park.loginPrompt')}</p>
          <div className="panel-actions">
            <button
              type="button"
              className="button button-primary"
              onClick={() => openDialog('login')}
            >
              {t('nav.login')}
            </button>
            <button
              type="button"
              className="button button-outline"
              onClick={() => openDialog('register')}
            >
              {t('nav.signup')}
            </button>
          </div>
        </div>
      ) : parked ? (
        <ParkResult
          record={parked}
          onReset={() => {
            setParked(null);
            setFormKey((key) => key + 1);
          }}
        />
      ) : (
        <div className="panel">
          <ParkDomainForm key={formKey} onParked={setParked} />
        </div>
      )}
    </Page>
  );
}
