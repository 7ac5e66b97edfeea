import { useCallback, useRef, useState } from 'react';
import { getErrorMessage } from '../../../lib/api-client';
import { searchByIdea } from '../api/search-by-idea';
import { toReferenceItem, type ReferenceItem } from '../utils/reference-item';

export type IdeaSearchPhase = 'idle' | 'searching' | 'done' | 'failed';

export interface IdeaSearch {
  phase: IdeaSearchPhase;
  /** The idea the results were found for. */
  idea: string;
  references: ReferenceItem[];
  error: string | null;
  /** Resolves with the failure's message, or null when the search found (or was superseded). */
  search: (idea: string) => Promise<string | null>;
  /** 'New Search': forgets the results. */
  reset: () => void;
  /** Changes one reference (its clone state, a new screenshot), found by url. */
  updateReference: (url: string, patch: Partial<ReferenceItem>) => void;
}

/** Idea flow (SPEC §4): searching for references, then found references (or a failed search). */
export function useIdeaSearch(): IdeaSearch {
  const [phase, setPhase] = useState<IdeaSearchPhase>('idle');
  const [idea, setIdea] = useState('');
  const [references, setReferences] = useState<ReferenceItem[]>([]);
  const [error, setError] = useState<string | null>(null);
  // A newer search (or a reset) makes the answer of an older one irrelevant.
  const generation = useRef(0);

  const search = useCallback(async (text: string): Promise<string | null> => {
    const run = ++generation.current;
    setPhase('searching');
    setError(null);
    try {
      const found = await searchByIdea(text);
      if (run !== generation.current) return null;
      setIdea(text);
      setReferences(found.map(toReferenceItem));
      setPhase('done');
      return null;
    } catch (failure) {
      if (run !== generation.current) return null;
      const message = getErrorMessage(failure, 'Website search failed');
      setError(message);
      setPhase('failed');
      return message;
    }
  }, []);

  const reset = useCallback(() => {
    generation.current += 1;
    setPhase('idle');
    setIdea('');
    setReferences([]);
    setError(null);
  }, []);

  const updateReference = useCallback((url: string, patch: Partial<ReferenceItem>) => {
    setReferences((current) =>
      current.map((item) => (item.url === url ? { ...item, ...patch } : item)),
    );
  }, []);

  return { phase, idea, references, error, search, reset, updateReference };
}
