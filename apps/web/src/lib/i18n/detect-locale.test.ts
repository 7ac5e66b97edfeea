import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '@mirror/contract';
import { detectLocale, localeFromPath, readSavedLocale, saveLocale } from './detect-locale';

describe('language detection', () => {
  it('takes the language of a language home route first', () => {
    expect(detectLocale({ pathname: '/ar', saved: 'es', browserLanguages: ['ru-RU'] })).toBe('ar');
    expect(detectLocale({ pathname: '/th/', saved: null, browserLanguages: [] })).toBe('th');
  });

  it('then the saved choice', () => {
    expect(detectLocale({ pathname: '/', saved: 'es', browserLanguages: ['ru-RU'] })).toBe('es');
    expect(detectLocale({ pathname: '/pricing', saved: 'zh', browserLanguages: ['hi'] })).toBe(
      'zh',
    );
  });

  it('then the first supported browser language', () => {
    expect(
      detectLocale({ pathname: '/', saved: null, browserLanguages: ['fr-FR', 'id-ID', 'ru'] }),
    ).toBe('id');
  });

  it('else English', () => {
    expect(detectLocale({ pathname: '/', saved: null, browserLanguages: ['fr-FR', 'de'] })).toBe(
      'en',
    );
  });

  it('knows which paths carry a language', () => {
    expect(localeFromPath('/es')).toBe('es');
    expect(localeFromPath('/')).toBeNull();
    expect(localeFromPath('/live-demo')).toBeNull();
    expect(localeFromPath('/es/pricing')).toBeNull();
  });

  it('saves and reads the choice under the contract storage key', () => {
    expect(readSavedLocale()).toBeNull();
    saveLocale('hi');
    expect(window.localStorage.getItem(STORAGE_KEYS.language)).toBe('hi');
    expect(readSavedLocale()).toBe('hi');
    window.localStorage.setItem(STORAGE_KEYS.language, 'xx');
    expect(readSavedLocale()).toBeNull();
  });
});
