import { describe, expect, it } from 'vitest';
import { createUrlMapper } from './url-map.js';

describe('url map', () => {
  const mapper = createUrlMapper('https://shop.test/');

  it('keeps the site paths and moves other hosts under /_x/', () => {
    expect(mapper.toCopyPath(new URL('https://shop.test/a/b.css?v=2#x'))).toBe('/a/b.css?v=2');
    expect(mapper.toCopyPath(new URL('http://shop.test/a'))).toBe('/a');
    expect(mapper.toCopyPath(new URL('https://cdn.test:8443/f.woff2'))).toBe(
      '/_x/cdn.test:8443/f.woff2',
    );
    expect(mapper.toCopyPath(new URL('http://cdn.test/f.png'))).toBe('/_x/~http/cdn.test/f.png');
  });

  it('maps copy paths back to the original URLs', () => {
    for (const url of [
      'https://shop.test/a?b=1',
      'https://cdn.test:8443/f.woff2',
      'http://cdn.test/f.png',
    ]) {
      expect(mapper.toOriginalUrl(mapper.toCopyPath(new URL(url)))).toBe(url);
    }
  });
});
