import { useEffect } from 'react';
import { URL_AUTO_PREFIX_DELAY_MS, withAutoPrefix } from '@mirror/contract';

/** After a typing pause, `example.com` becomes `https://example.com` (SPEC §5). */
export function useAutoPrefix(
  value: string,
  setValue: (next: string) => void,
  delayMs: number = URL_AUTO_PREFIX_DELAY_MS,
) {
  useEffect(() => {
    const next = withAutoPrefix(value);
    if (next === value) return;
    const timer = setTimeout(() => setValue(next), delayMs);
    return () => clearTimeout(timer);
  }, [value, setValue, delayMs]);
}
