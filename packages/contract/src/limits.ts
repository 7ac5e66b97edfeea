/** Business constants from SPEC §9, in one place for web and server. */
export const API_BASE_PATH = '/api';
export const API_TIMEOUT_MS = 10_000;
export const DEFAULT_CURRENCY = 'usd';
export const PASSWORD_MIN_LENGTH = 8;
export const DOMAIN_LABEL_MAX_LENGTH = 63;
export const CLONE_STATUS_POLL_MS = 3_000;
export const CLONE_STATUS_PRE_REQUEST_WAIT_MS = 200;
export const URL_AUTO_PREFIX_DELAY_MS = 1_000;
export const IDEA_SEARCH_LIMIT = 5;
export const AVATAR_MAX_INITIALS = 2;
export const TOAST_TIMEOUT_MS = 5_000;
export const DEMO_SAVED_TOAST_MS = 7_000;
export const DEMO_CLAIM_LOGIN_TOAST_MS = 5_000;
export const DEMO_CLAIM_REGISTER_TOAST_MS = 7_000;
/** AI rewrite for signed-in users without a paid plan, in cents. The web asks the pricing call. */
export const AI_REWRITE_PRICE_CENTS = 200;
/** Browser storage keys (SPEC §9). */
export const STORAGE_KEYS = {
  token: 'token',
  language: 'mirror.language',
  demoSites: 'mirror.demoSites',
  settings: 'mirror.settings',
} as const;

/** Settings of a new account and of a visitor (SPEC §3 defaults). */
export const DEFAULT_USER_SETTINGS = {
  notifications: { email: true, push: false },
  appearance: { theme: 'light' },
} as const satisfies {
  notifications: { email: boolean; push: boolean };
  appearance: { theme: 'light' | 'dark' | 'system' };
};
