import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { notify } from '../../lib/toast';
import { paths } from '../../config/paths';
import { useAuth } from '../../lib/auth-context';
import { logout } from '../../lib/auth-provider';
import { useI18n } from '../../lib/i18n';
import { useLoading } from '../../lib/loading';

/** Revokes the session on the server, then forgets it here even when the server call failed. */
export function useLogout() {
  const { signOut } = useAuth();
  const { t } = useI18n();
  const { withLoading } = useLoading();
  const navigate = useNavigate();
  return useCallback(async () => {
    try {
      await withLoading(logout());
      notify.success(t('toasts.logoutSuccess'));
    } catch {
      notify.error(t('toasts.logoutFailed'));
    } finally {
      signOut();
      void navigate(paths.home.getHref());
    }
  }, [signOut, t, withLoading, navigate]);
}
