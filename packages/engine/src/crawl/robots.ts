import robotsParserModule from 'robots-parser';

interface RobotsTxt {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
}

// A CommonJS module whose types declare an ES default export: under NodeNext the default import is
// the function itself at run time, but typed as the module namespace.
const robotsParser = robotsParserModule as unknown as (url: string, text: string) => RobotsTxt;

export interface Robots {
  isAllowed(url: string): boolean;
  crawlDelayMs: number;
  sitemaps: string[];
}

export const ALLOW_ALL: Robots = { isAllowed: () => true, crawlDelayMs: 0, sitemaps: [] };

export function parseRobots(robotsUrl: string, text: string, userAgent: string): Robots {
  const robots = robotsParser(robotsUrl, text);
  const agent = userAgent.split('/')[0] ?? userAgent;
  const delay = robots.getCrawlDelay(agent);
  return {
    isAllowed: (url) => robots.isAllowed(url, agent) !== false,
    // Honoured up to 10 s; longer delays would make a mirror take days.
    crawlDelayMs: delay ? Math.min(delay, 10) * 1000 : 0,
    sitemaps: robots.getSitemaps(),
  };
}
