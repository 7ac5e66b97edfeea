import { describe, expect, it } from 'vitest';
import { processWebManifest } from './manifest.js';

const URL_ = 'https://example.com/app/site.webmanifest';

describe('processWebManifest', () => {
  const manifest = JSON.stringify(
    {
      name: 'App',
      start_url: '/?source=pwa',
      scope: '/',
      icons: [{ src: 'icon-192.png', sizes: '192x192' }, { src: 'data:image/png;base64,AA' }],
      screenshots: [{ src: '/shot.png' }],
      shortcuts: [{ name: 'New', url: '/new', icons: [{ src: '/new.png' }] }],
    },
    null,
    2,
  );

  it('lists icons, screenshots, start_url and shortcuts', () => {
    const r = processWebManifest(manifest, URL_, () => undefined);
    expect(r.refs.map((x) => [x.url, x.kind, x.context])).toEqual([
      ['https://example.com/?source=pwa', 'page', 'manifest start_url'],
      ['https://example.com/', 'page', 'manifest scope'],
      ['https://example.com/app/icon-192.png', 'image', 'manifest icons[].src'],
      ['https://example.com/shot.png', 'image', 'manifest screenshots[].src'],
      ['https://example.com/new', 'page', 'manifest shortcuts[].url'],
      ['https://example.com/new.png', 'image', 'manifest shortcuts[].icons[].src'],
    ]);
    expect(r.json).toBe(manifest);
  });

  it('rewrites and keeps the indentation', () => {
    const r = processWebManifest(manifest, URL_, (ref) => {
      const u = new URL(ref.url);
      return `/copy${u.pathname}${u.search}`;
    });
    const data = JSON.parse(r.json);
    expect(data.icons[0].src).toBe('/copy/app/icon-192.png');
    expect(data.icons[1].src).toBe('data:image/png;base64,AA');
    expect(data.start_url).toBe('/copy/?source=pwa');
    expect(data.shortcuts[0].icons[0].src).toBe('/copy/new.png');
    expect(r.json).toContain('\n  "name": "App"');
  });

  it('returns invalid JSON unchanged', () => {
    expect(processWebManifest('{oops', URL_, () => 'x')).toEqual({ json: '{oops', refs: [] });
    expect(processWebManifest('[1]', URL_, () => 'x')).toEqual({ json: '[1]', refs: [] });
  });
});
