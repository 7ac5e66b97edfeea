import { useEffect } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { DEFAULT_LOCALE, type LocaleCode } from '@mirror/contract';
import { HostArchive } from '../../features/archives/components/host-archive';
import { IdeaMode } from '../../features/ideas/components/idea-mode';
import { LandingPage } from '../../features/landing/components/landing-page';
import { useAuth } from '../../lib/auth-context';
import { useDialogs } from '../../lib/dialogs';
import { useDocumentMeta } from '../../lib/document-meta';
import { getLocaleInfo, useI18n } from '../../lib/i18n';
import { detectBrowserLocale } from '../../lib/i18n/detect-locale';

interface LandingRouteProps {
  /** Set on the language homes (/es, /ru, ...): they switch and save the language. */
  routeLocale?: LocaleCode;
  isLiveDemo?: boolean;
}

export function LandingRoute({ routeLocale, isLiveDemo = false }: LandingRouteProps) {
  const { locale, setLocale, t } = useI18n();
  const { isLoggedIn } = useAuth();
  const { openDialog } = useDialogs();
  const [searchParams] = useSearchParams();
  const { pathname, search, hash } = useLocation();
  const navigate = useNavigate();

  // A language home switches to its language on arrival only: re-forcing it whenever the language
  // changes would undo a switch made from this page before the navigation away lands.
  useEffect(() => {
    if (routeLocale) void setLocale(routeLocale, { save: true });
  }, [routeLocale, setLocale]);

  // `/` is English's home: a visitor whose saved or browser language is another one lands on that
  // language's home instead, so the address always says which language the page is in. The saved
  // choice is written before a language switch navigates here, so switching to English stays here.
  useEffect(() => {
    if (routeLocale || isLiveDemo) return;
    const preferred = detectBrowserLocale();
    if (preferred !== DEFAULT_LOCALE) {
      void navigate(`${getLocaleInfo(preferred).homePath}${search}${hash}`, { replace: true });
    }
    // Only on arrival: later language switches navigate by themselves.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [routeLocale, isLiveDemo]);

  const wantsLogin = searchParams.get('login') === 'true';
  useEffect(() => {
    if (wantsLogin && !isLoggedIn) openDialog('login');
  }, [wantsLogin, isLoggedIn, openDialog]);

  const metaKey = isLiveDemo ? 'meta.liveDemo' : 'meta.home';
  useDocumentMeta({
    title: t(`${metaKey}.title`),
    description: t(`${metaKey}.description`),
    path: pathname,
    image: `/og/${routeLocale ?? locale}.png`,
  });

  return <LandingPage ideaPanel={<IdeaMode />} archivePanel={<HostArchive />} />;
}
