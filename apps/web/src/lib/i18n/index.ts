export { I18nProvider } from './i18n-provider';
export { lazyScreen } from './lazy-screen';
export { useI18n } from './use-i18n';
export {
  detectLocale,
  getLocaleInfo,
  localeFromPath,
  readSavedLocale,
  saveLocale,
} from './detect-locale';
export type { TranslateVars } from './translate';
