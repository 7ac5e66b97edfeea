import { useCallback, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { PanelDisclosureContext } from '../../../components/ui/panel';

/** The sections of the site page, in their order (issue 31). */
export const SITE_SECTIONS = [
  'overview',
  'fidelity',
  'edits',
  'versions',
  'watches',
  'forms',
  'domains',
  'analytics',
  'settings',
] as const;
export type SiteSectionId = (typeof SITE_SECTIONS)[number];

/** The query parameter naming the open sections: `?open=fidelity,versions` (`?open=` for none). */
export const OPEN_PARAM = 'open';

/** Below this width every section starts closed: a phone shows their titles, one under another. */
export const NARROW_QUERY = '(max-width: 47.99rem)';

function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia?.(query);
      list?.addEventListener?.('change', onChange);
      return () => list?.removeEventListener?.('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  );
}

export interface SiteSections {
  isOpen: (id: SiteSectionId) => boolean;
  toggle: (id: SiteSectionId) => void;
  /** Opens a section (a link from elsewhere on the page leads into it). */
  show: (id: SiteSectionId) => void;
}

/**
 * Which sections are open: what the address says, else all of them on a wide screen and none on a
 * phone but `narrowDefault`. Opening or closing one writes the whole set into the address
 * (replacing the entry), so a reload, the back button after leaving, or a shared link shows the
 * page as it was.
 */
export function useSiteSections(narrowDefault: readonly SiteSectionId[] = []): SiteSections {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const narrow = useMediaQuery(NARROW_QUERY);
  const named = params.get(OPEN_PARAM);
  const defaults = narrowDefault.join(',');
  const open = useMemo(() => {
    const ids = named ?? (narrow ? defaults : SITE_SECTIONS.join(','));
    return new Set(SITE_SECTIONS.filter((id) => ids.split(',').includes(id)));
  }, [named, narrow, defaults]);

  const write = useCallback(
    (next: Set<SiteSectionId>) => {
      const rest = new URLSearchParams(location.search);
      rest.delete(OPEN_PARAM);
      // Commas as they are (`?open=fidelity,versions`): an address a person can read.
      const open = `${OPEN_PARAM}=${SITE_SECTIONS.filter((id) => next.has(id)).join(',')}`;
      const search = `?${rest.size > 0 ? `${rest.toString()}&` : ''}${open}`;
      void navigate(
        { pathname: location.pathname, search, hash: location.hash },
        { replace: true, preventScrollReset: true, state: location.state as unknown },
      );
    },
    [location, navigate],
  );

  return {
    isOpen: (id) => open.has(id),
    toggle: (id) => {
      const next = new Set(open);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      write(next);
    },
    show: (id) => {
      if (!open.has(id)) write(new Set([...open, id]));
    },
  };
}

/** One section: the Panel inside opens and closes with it. */
export function SiteSection({
  id,
  sections,
  children,
}: {
  id: SiteSectionId;
  sections: SiteSections;
  children: ReactNode;
}) {
  const disclosure = { open: sections.isOpen(id), onToggle: () => sections.toggle(id) };
  return (
    <div className="site-section" id={`site-section-${id}`} data-section={id}>
      <PanelDisclosureContext.Provider value={disclosure}>
        {children}
      </PanelDisclosureContext.Provider>
    </div>
  );
}
