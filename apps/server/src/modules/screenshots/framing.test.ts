import { describe, expect, it } from 'vitest';
import { allowsFraming } from './framing.js';

const APP = 'https://mirror.example';

function framing(xFrameOptions: string | null, contentSecurityPolicy: string | null = null) {
  return { xFrameOptions, contentSecurityPolicy };
}

describe('allowsFraming', () => {
  it('reads X-Frame-Options when no policy names frame-ancestors', () => {
    expect(allowsFraming(framing(null), APP)).toBe(true);
    expect(allowsFraming(framing('DENY'), APP)).toBe(false);
    expect(allowsFraming(framing('sameorigin'), APP)).toBe(false);
    expect(allowsFraming(framing('ALLOW-FROM https://mirror.example/'), APP)).toBe(false);
    expect(allowsFraming(framing('SAMEORIGIN, DENY'), APP)).toBe(false);
    expect(allowsFraming(framing(null, "default-src 'self'"), APP)).toBe(true);
    expect(allowsFraming(framing('DENY', "default-src 'self'"), APP)).toBe(false);
  });

  it('lets frame-ancestors decide when present, over X-Frame-Options', () => {
    const cases: [string, boolean][] = [
      ["frame-ancestors 'none'", false],
      ["frame-ancestors 'self'", false],
      ['frame-ancestors *', true],
      ['frame-ancestors https:', true],
      ['frame-ancestors http:', true],
      ['frame-ancestors https://mirror.example', true],
      ['frame-ancestors https://*.example', true],
      ['frame-ancestors mirror.example', true],
      ['frame-ancestors https://mirror.example:8443', false],
      ['frame-ancestors https://other.example https://mirror.example/path', true],
      ['frame-ancestors https://other.example', false],
      ["default-src 'self'; FRAME-ANCESTORS 'self' https://mirror.example", true],
      // Two policies: both must allow.
      ["frame-ancestors *, frame-ancestors 'none'", false],
    ];
    for (const [csp, allowed] of cases) {
      expect(allowsFraming(framing('DENY', csp), APP), csp).toBe(allowed);
    }
    expect(
      allowsFraming(
        framing(null, 'frame-ancestors http://localhost:8080'),
        'http://localhost:8080',
      ),
    ).toBe(true);
    expect(allowsFraming(framing(null, 'frame-ancestors https:'), 'http://localhost:8080')).toBe(
      false,
    );
  });
});
