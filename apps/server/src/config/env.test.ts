import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.js';

describe('loadConfig', () => {
  it('runs on the embedded defaults with nothing set', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.appUrl).toBe('http://localhost:8080');
    expect(config.sitesDomain).toBe('localhost');
    expect(config.database).toEqual({ kind: 'sqlite', file: path.resolve('data/mirror.db') });
  });

  it('follows PORT for the default app URL and treats empty values as unset', () => {
    const config = loadConfig({ PORT: '9001', DATABASE_URL: '', LOG_LEVEL: '' });
    expect(config.appUrl).toBe('http://localhost:9001');
    expect(config.database.kind).toBe('sqlite');
    expect(config.logLevel).toBe('info');
  });

  it('runs payments in test mode only where it is safe, or when asked for by name', () => {
    expect(loadConfig({}).payments.mode).toBe('test');
    // Production without Stripe keys used to take free test cards: now nothing can be bought.
    const production = {
      NODE_ENV: 'production',
      APP_URL: 'https://mirror.example',
      METRICS_TOKEN: 'a-token-of-sixteen-or-more',
    };
    expect(loadConfig(production).payments.mode).toBe('off');
    expect(loadConfig({ ...production, PAYMENTS_MODE: 'test' }).payments.mode).toBe('test');
    expect(() => loadConfig({ ...production, PAYMENTS_MODE: 'stripe' })).toThrow(
      /STRIPE_SECRET_KEY: is needed when PAYMENTS_MODE is stripe/,
    );
  });

  it('requires METRICS_TOKEN in production: it guards /metrics and /api/internal/*', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', APP_URL: 'https://mirror.example' })).toThrow(
      /METRICS_TOKEN: is required in production/,
    );
  });

  it('switches to PostgreSQL when DATABASE_URL is set', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' });
    expect(config.database).toMatchObject({
      kind: 'postgres',
      url: 'postgres://postgres@127.0.0.1:5432/test',
    });
  });

  it('lists every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        APP_URL: 'not a url',
        DATABASE_URL: 'mysql://x',
        LOG_LEVEL: 'loud',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.map((p) => p.split(':')[0]);
    expect(problems).toEqual(
      expect.arrayContaining(['PORT', 'APP_URL', 'DATABASE_URL', 'LOG_LEVEL']),
    );
  });

  it('reads the idea search settings: Brave by default, a key turns the web search on', () => {
    expect(loadConfig({}).search).toEqual({
      apiKey: undefined,
      apiUrl: 'https://api.search.brave.com/res/v1/web/search',
    });
    expect(
      loadConfig({ SEARCH_API_KEY: 'k', SEARCH_API_URL: 'http://127.0.0.1:9/search' }).search,
    ).toEqual({ apiKey: 'k', apiUrl: 'http://127.0.0.1:9/search' });
    expect(() => loadConfig({ SEARCH_API_URL: 'ftp://search.example' })).toThrow(/SEARCH_API_URL/);
  });

  it('refuses an app URL under the sites domain, which would share an origin with tenants', () => {
    expect(() =>
      loadConfig({ APP_URL: 'https://app.sites.example.com', SITES_DOMAIN: 'sites.example.com' }),
    ).toThrow(/must not live under SITES_DOMAIN/);
    expect(
      loadConfig({ APP_URL: 'https://mirror.example.com', SITES_DOMAIN: 'mirror.site' }).appHost,
    ).toBe('mirror.example.com');
  });

  it('refuses an app URL on the sites domain itself, which would put tenants on the app’s site', () => {
    for (const appUrl of [
      'https://mirror.site',
      'https://MIRROR.site:8443/',
      'https://mirror.site./',
    ]) {
      expect(() => loadConfig({ APP_URL: appUrl, SITES_DOMAIN: 'mirror.site' }), appUrl).toThrow(
        'APP_URL: the app must not live on SITES_DOMAIN (mirror.site) itself: every tenant site would be a subdomain of the app',
      );
    }
    // Development: the app on localhost, tenants on *.localhost (each its own site to browsers).
    expect(loadConfig({ PORT: '8080' })).toMatchObject({
      appUrl: 'http://localhost:8080',
      sitesDomain: 'localhost',
    });
  });
});
