import { useEffect } from 'react';
import { getLocaleInfo, useI18n } from './i18n';

export interface DocumentMeta {
  title: string;
  description: string;
  /** Canonical path; defaults to the current path. */
  path?: string;
  /** Social image path under public/, e.g. /og/es.png. */
  image?: string;
}

function setMeta(attribute: 'name' | 'property', key: string, content: string): void {
  let element = document.head.querySelector<HTMLMetaElement>(`meta[${attribute}="${key}"]`);
  if (!element) {
    element = document.createElement('meta');
    element.setAttribute(attribute, key);
    document.head.appendChild(element);
  }
  element.content = content;
}

function setCanonical(href: string): void {
  let link = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!link) {
    link = document.createElement('link');
    link.rel = 'canonical';
    document.head.appendChild(link);
  }
  link.href = href;
}

/** Title, description, Open Graph, Twitter card and canonical link for the current route. */
export function useDocumentMeta({ title, description, path, image = '/og/en.png' }: DocumentMeta) {
  const { locale } = useI18n();
  useEffect(() => {
    const origin = window.location.origin;
    const url = `${origin}${path ?? window.location.pathname}`;
    const imageUrl = `${origin}${image}`;
    document.title = title;
    setMeta('name', 'description', description);
    setMeta('property', 'og:type', 'website');
    setMeta('property', 'og:site_name', 'Mirror');
    setMeta('property', 'og:title', title);
    setMeta('property', 'og:description', description);
    setMeta('property', 'og:image', imageUrl);
    setMeta('property', 'og:url', url);
    setMeta('property', 'og:locale', getLocaleInfo(locale).tag.replace('-', '_'));
    setMeta('name', 'twitter:card', 'summary_large_image');
    setMeta('name', 'twitter:title', title);
    setMeta('name', 'twitter:description', description);
    setMeta('name', 'twitter:image', imageUrl);
    setCanonical(url);
  }, [title, description, path, image, locale]);
}
