export { findForms, FORM_LIMITS, OWN_FIELD_PREFIX } from './forms.js';
export { markScriptSubmits } from './script-submits.js';
export { FORM_MARK_TAG, formsOfEditedPage, markForms } from './mark-forms.js';
export {
  ELAPSED_FIELD,
  FORM_KEY_FIELD,
  HONEYPOT_FIELD,
  matchSiteForm,
  siteFormsOf,
  siteSearchesOf,
  SITE_FORM_PAGES,
  SITE_FORMS_MAX,
  thankYouPageOf,
  type FormPost,
  type SiteForm,
} from './site-forms.js';
