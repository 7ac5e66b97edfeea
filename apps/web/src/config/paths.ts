/** Every route of the app (SPEC §2) in one place: `path` for the router, `getHref` for links. */
export const paths = {
  home: { path: '/', getHref: () => '/' },
  liveDemo: { path: '/live-demo', getHref: () => '/live-demo' },
  localeHome: { path: '/:lang', getHref: (lang: string) => `/${lang}` },
  dashboard: { path: '/dashboard', getHref: () => '/dashboard' },
  site: { path: '/dashboard/site/:id', getHref: (id: string) => `/dashboard/site/${id}` },
  /** A version's change report (issue 33). */
  siteChanges: {
    path: '/dashboard/site/:id/changes/:versionId',
    getHref: (id: string, versionId: string) => `/dashboard/site/${id}/changes/${versionId}`,
  },
  domain: { path: '/dashboard/domain/:id', getHref: (id: string) => `/dashboard/domain/${id}` },
  parkDomain: { path: '/park-domain', getHref: () => '/park-domain' },
  billing: { path: '/billing', getHref: () => '/billing' },
  profile: { path: '/profile', getHref: () => '/profile' },
  settings: { path: '/settings', getHref: () => '/settings' },
  contact: { path: '/contact', getHref: () => '/contact' },
  about: { path: '/about', getHref: () => '/about' },
  blog: { path: '/blog', getHref: () => '/blog' },
  roadmap: { path: '/roadmap', getHref: () => '/roadmap' },
  terms: { path: '/terms', getHref: () => '/terms' },
  privacy: { path: '/privacy', getHref: () => '/privacy' },
  cookies: { path: '/cookies', getHref: () => '/cookies' },
  resetPassword: {
    path: '/reset-password',
    getHref: (token?: string) =>
      token ? `/reset-password?token=${encodeURIComponent(token)}` : '/reset-password',
  },
  notFound: { path: '/404', getHref: () => '/404' },
  login: { getHref: () => '/?login=true' },
} as const;

export const STATIC_PAGES = [
  'contact',
  'about',
  'blog',
  'roadmap',
  'terms',
  'privacy',
  'cookies',
] as const;
export type StaticPageName = (typeof STATIC_PAGES)[number];
