import { z } from 'zod';
import { fieldOf, parseEntries } from './catalogue-data.js';
import catalogue from './reference-catalogue.json' with { type: 'json' };
import { REFERENCE_CATEGORIES, type ReferenceCategory } from './reference-categories.js';

/**
 * The bundled reference catalogue: real, public, well-designed homepages that idea search offers
 * without any external service. The sites live in `reference-catalogue.json`, one object each;
 * edit freely. Each entry is checked when the module loads (a bad one stops the server, named);
 * the catalogue test checks count, unique hosts and that every category has several sites. See
 * docs/idea-search.md.
 */
export interface ReferenceSite {
  title: string;
  url: string;
  category: ReferenceCategory;
  tags: readonly string[];
  /** One line, shown under the reference in the grid. */
  description: string;
}

/** One site of the JSON file. */
export const ReferenceSiteEntry = z
  .object({
    title: z.string().trim().min(1),
    url: z.url({ protocol: /^https$/ }),
    category: z.enum(REFERENCE_CATEGORIES),
    tags: z.array(z.string().trim().min(1)).min(1),
    description: z.string().trim().min(1),
  })
  .strict();

/** The catalogue's entries, checked: throws naming the first bad one. */
export function parseReferenceSites(data: unknown): ReferenceSite[] {
  return parseEntries('reference-catalogue.json', ReferenceSiteEntry, data, fieldOf('title'));
}

export const REFERENCE_SITES: readonly ReferenceSite[] = parseReferenceSites(catalogue);
