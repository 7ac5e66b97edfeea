/**
 * Which requests are tracking, consent or chat plumbing rather than content, by Ghostery's tracker
 * database (`@ghostery/trackerdb`, a maintained list of 3,500 patterns with categories). A render
 * that only fetched such files, or only added their pixels and banners, found nothing a visitor of
 * the copy would miss: they are no evidence (docs/engine.md, step 4).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/** Categories whose requests never make a page worth rendering. */
const PLUMBING_CATEGORIES: ReadonlySet<string> = new Set([
  'advertising',
  'pornvertising',
  'site_analytics',
  'consent',
  // Chat widgets, feedback buttons, support beacons.
  'customer_interaction',
]);

/**
 * Patterns of the "utilities" category that are tag managers, analytics, monitoring, A/B testing
 * and consent tools (the rest of it, such as maps, captchas or payment buttons, shows something).
 */
const PLUMBING_UTILITIES: ReadonlySet<string> = new Set([
  'google_tag_manager',
  'google_tag_manager_1p',
  'google_tag_telemetry',
  'adobe_dynamic_tag_management',
  'ensighten',
  'tag_commander',
  'tagman',
  'piwik_pro_tag_manager',
  'relay42',
  'datalicious_supertag',
  'plausible_analytics',
  'simple_analytics',
  'fathom',
  'sentry',
  'datadog',
  'appdynamics',
  'microsoft_azure_monitor',
  'optimizely',
  'ablyft',
  'launch_darkly',
  'cookie_consent',
  'cookieq',
  'evidon',
  'onesignal',
]);

/** Names the tracker a URL belongs to (e.g. "Google Analytics"), or null for any other URL. */
export type TrackerMatcher = (url: string, pageUrl: string) => string | null;

let loading: Promise<TrackerMatcher> | undefined;

/** The matcher, loaded once per process (about 15 ms and 8 MB of heap). */
export function trackerMatcher(): Promise<TrackerMatcher> {
  loading ??= load().catch((error: unknown) => {
    loading = undefined;
    throw error;
  });
  return loading;
}

async function load(): Promise<TrackerMatcher> {
  // Loaded with the first render that asks: a run without one never loads the database's code.
  const { default: loadTrackerDB } = await import('@ghostery/trackerdb');
  const entry = createRequire(import.meta.url).resolve('@ghostery/trackerdb');
  const bytes = await readFile(path.join(path.dirname(entry), '..', 'trackerdb.engine'));
  const db = await loadTrackerDB(new Uint8Array(bytes));
  return (url, pageUrl) => {
    if (!/^https?:/i.test(url)) return null;
    try {
      for (const match of db.matchUrl({ url, type: 'xhr', sourceUrl: pageUrl })) {
        const key = match.pattern.key;
        if (PLUMBING_CATEGORIES.has(match.category.key) || PLUMBING_UTILITIES.has(key))
          return match.pattern.name;
      }
    } catch {
      // A URL the matcher cannot parse is no tracker it knows.
    }
    return null;
  };
}
