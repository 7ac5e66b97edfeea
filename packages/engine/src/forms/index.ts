export { findForms, FORM_LIMITS } from './forms.js';
