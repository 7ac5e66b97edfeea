import { useState, type FormEvent } from 'react';
import type { UserSettings } from '@mirror/contract';
import { Panel } from '../../../components/ui/panel';
import { Spinner } from '../../../components/ui/spinner';
import { Switch } from '../../../components/ui/switch';
import { useAuth } from '../../../lib/auth-context';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { saveSettings } from '../api/save-settings';
import { writeLocalSettings } from '../utils/local-settings';

type Theme = UserSettings['appearance']['theme'];

/** Only the light theme exists so far; the others are shown as coming soon. */
const THEME_OPTIONS: { value: Theme; available: boolean }[] = [
  { value: 'light', available: true },
  { value: 'dark', available: false },
  { value: 'system', available: false },
];

export function SettingsForm({ initial }: { initial: UserSettings }) {
  const { t } = useI18n();
  const { updateUser } = useAuth();
  const [settings, setSettings] = useState<UserSettings>(initial);
  const [isSaving, setIsSaving] = useState(false);

  const setNotification = (channel: keyof UserSettings['notifications'], on: boolean) =>
    setSettings((current) => ({
      ...current,
      notifications: { ...current.notifications, [channel]: on },
    }));

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setIsSaving(true);
    try {
      const answer = await saveSettings(settings);
      updateUser(answer.user);
      writeLocalSettings(answer.user.settings);
      notify.success(t('settings.toasts.saved'));
    } catch (error) {
      console.error('Saving settings failed', error);
      notify.error(t('settings.toasts.saveFailed'));
    } finally {
      setIsSaving(false);
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit}>
      <Panel
        title={t('settings.notifications.title')}
        description={t('settings.notifications.description')}
      >
        <Switch
          label={t('settings.notifications.email')}
          description={t('settings.notifications.emailHint')}
          checked={settings.notifications.email}
          onChange={(on) => setNotification('email', on)}
        />
        <Switch
          label={t('settings.notifications.push')}
          description={t('settings.notifications.pushHint')}
          checked={settings.notifications.push}
          onChange={(on) => setNotification('push', on)}
        />
      </Panel>
      <Panel title={t('settings.appearance.title')}>
        <fieldset className="choice-group">
          <legend className="visually-hidden">{t('settings.appearance.theme')}</legend>
          <div className="choice-list">
            {THEME_OPTIONS.map((option) => (
              <label key={option.value} className="choice">
                <input
                  type="radio"
                  name="theme"
                  value={option.value}
                  checked={settings.appearance.theme === option.value}
                  disabled={!option.available}
                  onChange={() =>
                    setSettings((current) => ({ ...current, appearance: { theme: option.value } }))
                  }
                />
                <span className="choice-text">
                  {t(`settings.appearance.${option.value}`)}
                  {!option.available && <span className="badge">{t('common.comingSoon')}</span>}
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      </Panel>
      <div className="form-actions form-actions-section">
        <button
          type="submit"
          className="button button-primary"
          disabled={isSaving}
          aria-busy={isSaving || undefined}
        >
          {isSaving && <Spinner />}
          {isSaving ? t('settings.saving') : t('settings.save')}
        </button>
      </div>
    </form>
  );
}
