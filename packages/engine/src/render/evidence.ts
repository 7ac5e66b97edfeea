/**
 * When a render has found something the copy needs, and how to say what, in a manifest entry or a
 * note. The crawler narrows `newRequests` and `addedLinks` to what its static tier has not seen
 * before asking (see docs/engine.md, step 4).
 */
import type { ScriptAbility } from '../references/script-scan.js';
import type { RenderEvidence } from './renderer.js';

export const EVIDENCE_THRESHOLDS = {
  /**
   * Characters of visible text. Fewer are a stamp (a year, a date, "Hello, guest") that the kept
   * scripts write again when the copy is viewed: not worth rendering every page of a template.
   */
  addedText: 32,
} as const;

/**
 * Whether the render found content or resources the static copy lacks. Client routing alone is
 * none (the kept scripts route in the copy as they do on the site; what a route fetches shows as a
 * new request), and neither are trackers: the renderer leaves them out of the requests and images.
 */
export function showsEvidence(evidence: RenderEvidence): boolean {
  return (
    evidence.newRequests.length > 0 ||
    evidence.addedText >= EVIDENCE_THRESHOLDS.addedText ||
    evidence.addedImages > 0 ||
    evidence.addedLinks.length > 0 ||
    evidence.shadowRoots > 0 ||
    evidence.insertedStyles > 0 ||
    evidence.drawnCanvases > 0
  );
}

/** The last path segment of a URL (its host for `/`) and its query, to name a file in one line. */
export function fileName(url: string): string {
  try {
    const { pathname, search, host } = new URL(url);
    return (pathname.split('/').filter(Boolean).pop() ?? host) + search;
  } catch {
    return url;
  }
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** e.g. "fetched 13 files the crawl had not found (products.json, p1.png, p2.png, …)". */
export function describeEvidence(evidence: RenderEvidence): string {
  const parts: string[] = [];
  const requests = evidence.newRequests;
  if (requests.length > 0) {
    const names = requests.slice(0, 3).map(fileName).join(', ');
    parts.push(
      `fetched ${plural(requests.length, 'file')} the crawl had not found (${names}${requests.length > 3 ? ', …' : ''})`,
    );
  }
  if (evidence.addedText > 0)
    parts.push(`added ${plural(evidence.addedText, 'character')} of text`);
  if (evidence.addedImages > 0) parts.push(`added ${plural(evidence.addedImages, 'image')}`);
  if (evidence.addedLinks.length > 0)
    parts.push(
      `added ${plural(evidence.addedLinks.length, 'link')} to pages the crawl had not seen`,
    );
  if (evidence.shadowRoots > 0)
    parts.push(`attached ${plural(evidence.shadowRoots, 'shadow root')}`);
  if (evidence.insertedStyles > 0)
    parts.push(`inserted or edited ${plural(evidence.insertedStyles, 'style sheet')}`);
  if (evidence.drawnCanvases > 0)
    parts.push(`drew ${plural(evidence.drawnCanvases, 'canvas', 'canvases')}`);
  const found = parts.length > 0;
  if (evidence.clientRouting) parts.push('routes on the client');
  const trackers = evidence.trackers;
  const ignored =
    trackers.length > 0
      ? `; trackers left out: ${trackers.slice(0, 3).join(', ')}${trackers.length > 3 ? ', …' : ''}`
      : '';
  if (found) return parts.join('; ') + ignored;
  const nothing = 'made no new request and changed nothing a visitor sees';
  return (parts.length > 0 ? `${nothing} (${parts.join('; ')})` : nothing) + ignored;
}

const ABILITY_PHRASES: Record<ScriptAbility, string> = {
  requests: 'request files',
  visual: 'change what a visitor sees',
  routing: 'route on the client',
  code: 'run code built at run time or a rendering library',
};

/** e.g. "request files, change what a visitor sees". */
export function describeAbilities(abilities: readonly ScriptAbility[]): string {
  return abilities.map((a) => ABILITY_PHRASES[a]).join(', ');
}
