import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { DEMO_CLAIM_LOGIN_TOAST_MS, DEMO_CLAIM_REGISTER_TOAST_MS } from '@mirror/contract';
import { useAuth, type AuthAnswer } from '../../../lib/auth-context';
import { useDialogs } from '../../../lib/dialogs';
import { useI18n } from '../../../lib/i18n';
import { notify } from '../../../lib/toast';
import { claimDemos } from '../api/claim-demos';
import { clearPendingDemoIds, readPendingDemoIds } from '../utils/pending-demos';

type SignInKind = 'login' | 'register';

const CLAIM_TOAST_MS: Record<SignInKind, number> = {
  login: DEMO_CLAIM_LOGIN_TOAST_MS,
  register: DEMO_CLAIM_REGISTER_TOAST_MS,
};

/**
 * What follows a successful login or registration (SPEC §4): keep the session, greet, close the
 * dialog, drop `login=true` from the address, then claim the demo mirrors made as a visitor. A
 * failed claim keeps the ids for the next sign-in and never undoes the sign-in itself.
 */
export function useAfterSignIn() {
  const { t } = useI18n();
  const { signIn } = useAuth();
  const { closeDialog } = useDialogs();
  const location = useLocation();
  const navigate = useNavigate();

  const claimPendingDemos = useCallback(
    async (kind: SignInKind) => {
      const ids = readPendingDemoIds();
      if (!ids) return;
      const autoClose = CLAIM_TOAST_MS[kind];
      try {
        const answer = await claimDemos(ids);
        if (!answer.success) throw new Error(answer.message);
        clearPendingDemoIds();
        notify.success(answer.message, { autoClose });
      } catch (error) {
        console.error('Claiming demo sites failed', error);
        notify.error(t('auth.demos.claimFailed'), { autoClose });
      }
    },
    [t],
  );

  return useCallback(
    (answer: AuthAnswer, kind: SignInKind) => {
      signIn(answer);
      notify.success(t(kind === 'login' ? 'toasts.loginSuccess' : 'toasts.registerSuccess'));
      closeDialog();
      const params = new URLSearchParams(location.search);
      if (params.has('login')) {
        params.delete('login');
        const search = params.toString();
        void navigate(
          { pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash },
          { replace: true },
        );
      }
      void claimPendingDemos(kind);
    },
    [signIn, t, closeDialog, location, navigate, claimPendingDemos],
  );
}
