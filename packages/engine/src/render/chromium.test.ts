import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './chromium.js';

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The command line of each Chromium browser process this process launched (Linux's /proc). */
function launchedCommandLines(): string[][] {
  const lines: string[][] = [];
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== process.pid) continue;
      const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (args.includes('--remote-debugging-pipe')) lines.push(args);
    } catch {
      // The process ended while it was being read.
    }
  }
  return lines;
}

describe('launchChromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium({ executablePath });
  });
  afterAll(async () => {
    await browser.close();
  });

  it('keeps every feature Playwright turns off: Chromium reads only the last --disable-features', () => {
    const [args] = launchedCommandLines();
    expect(args).toBeDefined();
    const lists = args!
      .filter((arg) => arg.startsWith('--disable-features='))
      .map((arg) => arg.slice('--disable-features='.length).split(','));
    expect(lists.length).toBeGreaterThan(0);
    const effective = lists.at(-1)!;
    for (const list of lists) expect(effective).toEqual(expect.arrayContaining(list));
  });

  it('opens a page without the omnibox popups of its window', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.setContent('<h1>A page</h1>');
      const cdp = await browser.newBrowserCDPSession();
      const { targetInfos } = (await cdp.send('Target.getTargets')) as {
        targetInfos: { type: string; url: string }[];
      };
      expect(targetInfos.filter((target) => target.type === 'page')).toHaveLength(1);
      expect(targetInfos.map((target) => target.url)).not.toContainEqual(
        expect.stringContaining('top-chrome'),
      );
    } finally {
      await context.close();
    }
  });
});
