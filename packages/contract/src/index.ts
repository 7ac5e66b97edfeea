export * from './plans.js';
export * from './limits.js';
export * from './locales.js';
export * from './errors.js';
export * from './messages.js';
export * from './url.js';
export * from './health.js';
export * from './auth.js';
