import MiniSearch, { type SearchOptions } from 'minisearch';
import { expandIdea } from './idea-synonyms.js';
import { processTerm, TOKEN_SEPARATOR } from './idea-terms.js';
import { REFERENCE_SITES, type ReferenceSite } from './reference-catalogue.js';
import { CATEGORY_KEYWORDS } from './reference-categories.js';

interface IndexedSite {
  id: number;
  title: string;
  tags: string;
  description: string;
  category: string;
}

export interface CatalogueMatch {
  site: ReferenceSite;
  score: number;
}

/** The category (its id and keywords) names the kind of site, so it weighs most; then tags. */
const FIELD_BOOST = { category: 3, tags: 2, title: 1.5, description: 1 };

/**
 * Typed words: prefix matching from four letters ("photo" finds "photograph"), one typo allowed
 * from six ("restaurnt"). Words added by the synonym table are exact English terms.
 */
const TYPED_OPTIONS: SearchOptions = {
  prefix: (term) => term.length >= 4,
  fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
  maxFuzzy: 2,
};
const EXPANDED_OPTIONS: SearchOptions = { prefix: false, fuzzy: false };

function buildIndex(sites: readonly ReferenceSite[]): MiniSearch<IndexedSite> {
  const index = new MiniSearch<IndexedSite>({
    fields: ['title', 'tags', 'description', 'category'],
    tokenize: (text) => text.split(TOKEN_SEPARATOR).filter(Boolean),
    processTerm: (term) => processTerm(term),
    searchOptions: { boost: FIELD_BOOST, combineWith: 'OR' },
  });
  index.addAll(
    sites.map((site, id) => ({
      id,
      title: site.title,
      tags: site.tags.join(', '),
      description: site.description,
      category: `${site.category.replace('-', ' ')} ${CATEGORY_KEYWORDS[site.category]}`,
    })),
  );
  return index;
}

let defaultIndex: MiniSearch<IndexedSite> | undefined;

/**
 * The best catalogue sites for an idea, best first. The idea's own words are searched with prefix
 * and typo tolerance; the English words its phrases map to (in any UI language, see
 * idea-synonyms.ts) are searched exactly; a site scores for both.
 */
export function searchCatalogue(
  idea: string,
  limit: number,
  sites: readonly ReferenceSite[] = REFERENCE_SITES,
): CatalogueMatch[] {
  const index =
    sites === REFERENCE_SITES ? (defaultIndex ??= buildIndex(sites)) : buildIndex(sites);
  const expansion = expandIdea(idea).join(' ');
  const results = index.search({
    combineWith: 'OR',
    queries: [
      { queries: [idea], ...TYPED_OPTIONS },
      ...(expansion ? [{ queries: [expansion], ...EXPANDED_OPTIONS }] : []),
    ],
  });
  return results
    .slice(0, limit)
    .map((result) => ({ site: sites[result.id as number]!, score: result.score }));
}
