import { describe, expect, it } from 'vitest';
import {
  dayBefore,
  hashVisitor,
  isBotUserAgent,
  pagePathOf,
  refererIsSameHost,
  referrerHostOf,
  utcDayOf,
} from './visitor-rules.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

describe('isBotUserAgent', () => {
  it('lets people’s browsers through', () => {
    for (const ua of [
      CHROME,
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
      // A phone brand with "bot" inside its name.
      'Mozilla/5.0 (Linux; Android 9; CUBOT X19) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/80.0.3987.99 Mobile Safari/537.36',
      'Opera/9.80 (J2ME/MIDP; Opera Mini/9.80 (S60; SymbOS; Opera Mobi/23.348; U; en) Presto/2.5.25 Version/10.54',
    ]) {
      expect(isBotUserAgent(ua), ua).toBe(false);
    }
  });

  it('leaves out crawlers, previews, monitors, scripts, headless browsers and no User-Agent', () => {
    for (const ua of [
      undefined,
      '',
      '   ',
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36',
      'Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)',
      'Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)',
      'Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)',
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.0; +https://openai.com/gptbot)',
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'Twitterbot/1.0',
      'WhatsApp/2.23.20.0',
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36',
      'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile Safari/537.36 Chrome-Lighthouse',
      'Mozilla/5.0+(compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)',
      'Pingdom.com_bot_version_1.4_(http://www.pingdom.com/)',
      'Mozilla/5.0 (compatible; Datadog/Synthetics)',
      'GoogleStackdriverMonitoring-UptimeChecks(https://cloud.google.com/monitoring)',
      'ELB-HealthChecker/2.0',
      'kube-probe/1.29',
      'curl/8.5.0',
      'Wget/1.21.3',
      'python-requests/2.31.0',
      'Go-http-client/1.1',
      'okhttp/4.12.0',
      'axios/1.6.8',
      'node-fetch/1.0 (+https://github.com/bitinn/node-fetch)',
      'Java/17.0.2',
      'PostmanRuntime/7.37.3',
      'Scrapy/2.11.0 (+https://scrapy.org)',
    ]) {
      expect(isBotUserAgent(ua), String(ua)).toBe(true);
    }
  });
});

describe('hashVisitor', () => {
  it('is the same for the same visitor on the same day and site, 128 bits of hex', () => {
    const mark = hashVisitor('salt-a', 'site-1', '203.0.113.7', CHROME);
    expect(mark).toMatch(/^[0-9a-f]{32}$/);
    expect(hashVisitor('salt-a', 'site-1', '203.0.113.7', CHROME)).toBe(mark);
  });

  it('differs by address, browser, site and day (salt), and never shows the address', () => {
    const mark = hashVisitor('salt-a', 'site-1', '203.0.113.7', CHROME);
    const others = [
      hashVisitor('salt-a', 'site-1', '203.0.113.8', CHROME),
      hashVisitor('salt-a', 'site-1', '203.0.113.7', `${CHROME} Edg/126.0.0.0`),
      hashVisitor('salt-a', 'site-2', '203.0.113.7', CHROME),
      hashVisitor('salt-b', 'site-1', '203.0.113.7', CHROME),
    ];
    expect(new Set([mark, ...others]).size).toBe(5);
    expect(mark).not.toContain('203');
    // Fields cannot be shifted into one another.
    expect(hashVisitor('s', 'site', '1.2.3.4', 'x')).not.toBe(
      hashVisitor('s', 'site', '1.2.3.4x', ''),
    );
  });
});

describe('referrers, paths and days', () => {
  it('tells a same-host Referer from another site’s', () => {
    expect(refererIsSameHost('https://A.test:8080/x', 'a.test:8080')).toBe(true);
    expect(refererIsSameHost('https://a.test', 'a.test')).toBe(true);
    expect(refererIsSameHost('https://a.test.evil/x', 'a.test')).toBe(false);
    expect(refererIsSameHost('https://a.test:8080/', 'a.test')).toBe(false);
    expect(refererIsSameHost(undefined, 'a.test')).toBe(false);
  });

  it('names the referring host without www, port, user or path', () => {
    expect(referrerHostOf('https://www.News.example:8443/item?id=1')).toBe('news.example');
    expect(referrerHostOf('https://user:pw@search.example/q')).toBe('search.example');
    expect(referrerHostOf('android-app://com.google.android.gm/')).toBe('com.google.android.gm');
    expect(referrerHostOf('http://[2001:db8::1]:8080/x')).toBe('[2001:db8::1]');
    expect(referrerHostOf('not a url')).toBeNull();
    expect(referrerHostOf('https:///path')).toBeNull();
    expect(referrerHostOf('https://bad host/')).toBeNull();
    expect(referrerHostOf(undefined)).toBeNull();
  });

  it('keeps the path of a page without query or fragment, bounded', () => {
    expect(pagePathOf('/')).toBe('/');
    expect(pagePathOf('/blog/post?utm_source=x&email=a@b.c')).toBe('/blog/post');
    expect(pagePathOf('/a#top')).toBe('/a');
    expect(pagePathOf('http://shop.example/cart?id=1')).toBe('/cart');
    expect(pagePathOf('http://shop.example')).toBe('/');
    expect(pagePathOf(`/${'x'.repeat(500)}`)).toHaveLength(200);
  });

  it('counts UTC days', () => {
    expect(utcDayOf(Date.parse('2025-03-01T23:59:59Z'))).toBe('2025-03-01');
    expect(dayBefore('2025-03-01', 1)).toBe('2025-02-28');
    expect(dayBefore('2024-03-01', 1)).toBe('2024-02-29');
    expect(dayBefore('2025-01-10', 0)).toBe('2025-01-10');
  });
});
