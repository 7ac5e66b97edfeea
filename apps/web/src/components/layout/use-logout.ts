import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { notify } from '../../lib/toast';
import { paths } from '../../config/paths';
import { useAuth } from '../../lib/auth-context';
import { useI18n } from '../../lib/i18n';

export function useLogout() {
  const { signOut } = useAuth();
  const { t } = useI18n();
  const navigate = useNavigate();
  return useCallback(() => {
    signOut();
    notify.success(t('toasts.logoutSuccess'));
    void navigate(paths.home.getHref());
  }, [signOut, t, navigate]);
}
