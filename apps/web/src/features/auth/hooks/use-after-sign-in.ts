import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { DEMO_CLAIM_LOGIN_TOAST_MS, DEMO_CLAIM_REGISTER_TOAST_MS } from '@mirror/contract';
import { queryKeys } from '../../../api/query-keys';
import { paths } from '../../../config/paths';
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
 *
 * The demo the dialog was opened for ("Register to customize") is claimed first, and the user
 * lands on its page; a sign-up from elsewhere lands on the first demo it claimed (issue 31, item 1).
 */
export function useAfterSignIn() {
  const { t } = useI18n();
  const { signIn } = useAuth();
  const { closeDialog, demoId } = useDialogs();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const claimPendingDemos = useCallback(
    async (kind: SignInKind, firstId: string | null) => {
      const stored = readPendingDemoIds() ?? [];
      const ids = firstId && !stored.includes(firstId) ? [firstId, ...stored] : stored;
      if (ids.length === 0) return;
      const autoClose = CLAIM_TOAST_MS[kind];
      try {
        const answer = await claimDemos(ids, firstId ?? undefined);
        if (!answer.success) throw new Error(answer.message);
        clearPendingDemoIds();
        notify.success(answer.message, { autoClose });
        // Lists and pages that showed the account's sites (or a demo as not yours) ask again.
        void queryClient.invalidateQueries({ queryKey: queryKeys.sites.all });
        const landing =
          firstId && answer.claimedIds.includes(firstId)
            ? firstId
            : kind === 'register'
              ? answer.claimedIds[0]
              : undefined;
        if (landing) void navigate(paths.site.getHref(landing));
      } catch (error) {
        console.error('Claiming demo sites failed', error);
        notify.error(t('auth.demos.claimFailed'), { autoClose });
      }
    },
    [t, queryClient, navigate],
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
      void claimPendingDemos(kind, demoId);
    },
    [signIn, t, closeDialog, location, navigate, claimPendingDemos, demoId],
  );
}
