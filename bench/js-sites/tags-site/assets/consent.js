/* global window */
// The consent banner: vanilla-cookieconsent (loaded before this file), configured as its documentation shows.
window.CookieConsent.run({
  // Shown to automated browsers too (its default hides it from navigator.webdriver), so the bench sees it.
  hideFromBots: false,
  categories: { necessary: { enabled: true, readOnly: true }, analytics: {} },
  onConsent: function () {
    if (window.CookieConsent.acceptedCategory('analytics'))
      window.gtag?.('consent', 'update', { analytics_storage: 'granted' });
  },
  language: {
    default: 'en',
    translations: {
      en: {
        consentModal: {
          title: 'We use cookies',
          description:
            'We use analytics cookies to learn which pages are read. You can accept them or keep only the necessary ones.',
          acceptAllBtn: 'Accept all',
          acceptNecessaryBtn: 'Reject all',
          showPreferencesBtn: 'Manage preferences',
        },
        preferencesModal: {
          title: 'Cookie preferences',
          acceptAllBtn: 'Accept all',
          acceptNecessaryBtn: 'Reject all',
          savePreferencesBtn: 'Save preferences',
          closeIconLabel: 'Close',
          sections: [
            {
              title: 'Strictly necessary',
              description: 'Needed for the site to work.',
              linkedCategory: 'necessary',
            },
            {
              title: 'Analytics',
              description: 'Google Analytics and Plausible count page views.',
              linkedCategory: 'analytics',
            },
          ],
        },
      },
    },
  },
});
