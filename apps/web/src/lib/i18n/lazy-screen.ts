import { lazy, type ComponentType } from 'react';
import { loadEnglish } from './load-messages';

/**
 * React.lazy for a named export of a screen or dialog that is not on the landing page: it renders
 * once its module and all of English are here (the landing page's initial script carries only its
 * own part of English). English that cannot be loaded leaves other languages' fallback short; it
 * does not stop the screen.
 */
// React's own `lazy` takes any component type; props stay those of the component named.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function lazyScreen<C extends ComponentType<any>, K extends string>(
  load: () => Promise<Record<K, C>>,
  name: K,
) {
  return lazy<C>(async () => {
    const [module] = await Promise.all([load(), loadEnglish().catch(() => undefined)]);
    return { default: module[name] };
  });
}
