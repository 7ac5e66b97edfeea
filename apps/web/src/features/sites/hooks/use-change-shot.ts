import { useEffect, useState } from 'react';
import { getChangeShot } from '../api/get-change-shot';

/**
 * A screenshot of a change report (owner only) as an address an <img> can show: fetched with the
 * session, shown from memory, let go when the picture is no longer shown. Undefined while it
 * loads; null when it cannot be had (the viewer then says there is no screenshot).
 */
export function useChangeShot(url: string): string | null | undefined {
  const [loaded, setLoaded] = useState<{ url: string; src: string | null } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    let src: string | null = null;
    getChangeShot(url, controller.signal).then(
      (blob) => {
        if (controller.signal.aborted) return;
        src = URL.createObjectURL(blob);
        setLoaded({ url, src });
      },
      () => {
        if (!controller.signal.aborted) setLoaded({ url, src: null });
      },
    );
    return () => {
      controller.abort();
      if (src) URL.revokeObjectURL(src);
    };
  }, [url]);
  return loaded?.url === url ? loaded.src : undefined;
}
