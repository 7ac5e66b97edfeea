import { describe, expect, it } from 'vitest';
import { formatBytes, formatPrice } from './format';

describe('formatBytes', () => {
  it('says "0 bytes" and "1 byte", as English counts them', () => {
    expect(formatBytes('en', 0)).toBe('0 bytes');
    expect(formatBytes('en', 1)).toBe('1 byte');
    expect(formatBytes('en', 512)).toBe('512 bytes');
    expect(formatBytes('en', 34_304)).toBe('33.5 kB');
  });

  it('follows each language’s plural rules below a kilobyte', () => {
    // Russian has three forms: 1 байт, 2 байта, 5 байт.
    expect(formatBytes('ru', 1)).toBe('1 байт');
    expect(formatBytes('ru', 2)).toBe('2 байта');
    expect(formatBytes('ru', 5)).toBe('5 байт');
    expect(formatBytes('es', 0)).toBe('0 bytes');
  });
});

describe('formatPrice', () => {
  it('writes the rewrite price as the SPEC does, decimals only when needed', () => {
    expect(formatPrice('en', 200, 'usd')).toBe('$2');
    expect(formatPrice('en', 350, 'usd')).toBe('$3.50');
    expect(formatPrice('es', 200, 'usd')).toMatch(/^2\s?US\$$/);
  });
});
