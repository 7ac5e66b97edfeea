import { describe, expect, it } from 'vitest';
import { processCss } from './css.js';
import { processHtml } from './html.js';
import type { RefVisitor } from './types.js';

const toCopy: RefVisitor = (ref) => `/copy${new URL(ref.url).pathname}`;

// Generous timeouts: correctness is asserted here, not speed (CI machines may be loaded).
const SLOW = 120_000;

describe('large inputs', () => {
  it(
    'processes 1 MB of minified CSS',
    () => {
      const rules: string[] = [];
      let size = 0;
      for (let i = 0; size < 1_000_000; i++) {
        const rule =
          i % 10 === 0
            ? `@font-face{font-family:f${i};src:url(/fonts/f${i}.woff2) format("woff2")}`
            : `.c${i}:hover>a[href^="x"]{color:#${(i % 4096).toString(16).padStart(3, '0')};background:url("img/i${i}.png") no-repeat 0 0/cover;margin:0 auto}/*c${i}*/`;
        rules.push(rule);
        size += rule.length;
      }
      const css = rules.join('');
      expect(css.length).toBeGreaterThanOrEqual(1_000_000);

      const found = processCss(css, 'https://example.com/css/all.css', () => undefined);
      expect(found.css).toBe(css);
      expect(found.refs).toHaveLength(rules.length);
      expect(found.refs.filter((r) => r.kind === 'font')).toHaveLength(
        Math.ceil(rules.length / 10),
      );

      const rewritten = processCss(css, 'https://example.com/css/all.css', toCopy);
      expect(rewritten.css.length).toBeGreaterThan(css.length);
      expect(rewritten.css).toContain('url("/copy/css/img/i1.png")');
      expect(rewritten.css).toContain('src:url(/copy/fonts/f0.woff2) format("woff2")');
      expect(
        rewritten.css.replace(/\/copy\/css\/|\/copy\//g, (m) => (m === '/copy/' ? '/' : '')),
      ).toBe(css);
    },
    SLOW,
  );

  it(
    'processes a 2 MB HTML page',
    () => {
      const parts = [
        '<!DOCTYPE html><html><head><title>Big</title><link rel=stylesheet href="/s.css"></head><body>',
      ];
      let size = parts[0]!.length;
      let images = 0;
      for (let i = 0; size < 2_000_000; i++) {
        const chunk =
          `<div class="card c${i}" style="background:url(/bg/${i}.jpg)"><a href="/p/${i}#top">Item ${i}</a>` +
          `<img src="/img/${i}.png" srcset="/img/${i}.png 1x, /img/${i}@2x.png 2x" alt="item &amp; ${i}">` +
          `<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit ${i}.</p><!-- c${i} --></div>\n`;
        parts.push(chunk);
        size += chunk.length;
        images++;
      }
      parts.push('</body></html>');
      const html = parts.join('');
      expect(html.length).toBeGreaterThanOrEqual(2_000_000);

      const found = processHtml(html, 'https://example.com/', () => undefined);
      expect(found.html).toBe(html);
      expect(found.refs).toHaveLength(1 + images * 5);
      expect(found.title).toBe('Big');

      const rewritten = processHtml(html, 'https://example.com/', toCopy);
      expect(rewritten.html).toContain('<a href="/copy/p/7#top">Item 7</a>');
      expect(rewritten.html).toContain('srcset="/copy/img/7.png 1x, /copy/img/7@2x.png 2x"');
      expect(rewritten.html).toContain('style="background:url(/copy/bg/7.jpg)"');
      expect(rewritten.html.replaceAll('/copy/', '/')).toBe(html);
    },
    SLOW,
  );
});
