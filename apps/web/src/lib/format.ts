/** Locale-aware formatting shared by the account pages. */

export function formatDateTime(locale: string, iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

/** How long ago `iso` was, in the reader's language: "2 hours ago", "yesterday", "3 weeks ago". */
export function formatAgo(locale: string, iso: string, now = Date.now()): string {
  const seconds = (Date.parse(iso) - now) / 1000;
  if (Number.isNaN(seconds)) return '';
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['year', 365 * 86_400],
    ['month', 30 * 86_400],
    ['week', 7 * 86_400],
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  for (const [unit, size] of units)
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  return format.format(0, 'minute');
}

/** A calendar day (`2025-01-31`, read as UTC) in the reader's language. */
export function formatDate(locale: string, iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  }).format(date);
}

export function formatNumber(locale: string, value: number): string {
  return new Intl.NumberFormat(locale).format(value);
}

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;

/**
 * 1536 → "1.5 kB", 0 → "0 bytes", 1 → "1 byte", in the reader's language. Below a kilobyte the
 * unit is written out, so it follows the language's plural rules ("0 byte" is short for both).
 */
export function formatBytes(locale: string, bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit: BYTE_UNITS[unit],
    unitDisplay: unit === 0 ? 'long' : 'short',
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}

/** 200 cents in usd → `$2`; whole amounts without decimals, as the SPEC writes the price. */
export function formatPrice(locale: string, cents: number, currency: string): string {
  const amount = cents / 100;
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: Number.isInteger(amount) ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(amount);
}

export function formatUsd(locale: string, amount: number): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' }).format(amount);
}

/** `https://www.example.com/docs` → `www.example.com/docs`; the text itself when it is no URL. */
export function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname === '/' ? '' : parsed.pathname;
    return `${parsed.host}${path}${parsed.search}`;
  } catch {
    return url;
  }
}

/**
 * How a site is named wherever it is listed or headed: its home page's title, with its host
 * beneath (`host`); its host alone (`host` null) when the home page has no title.
 */
export function siteNameOf(site: { title?: string | null; sourceUrl: string }): {
  name: string;
  host: string | null;
} {
  const host = displayUrl(site.sourceUrl);
  return site.title ? { name: site.title, host } : { name: host, host: null };
}

/** A percentage given as 0–100 (`99.62` → "99.6%"), with one decimal, in the reader's language. */
export function formatPercent(locale: string, percent: number): string {
  return new Intl.NumberFormat(locale, {
    style: 'percent',
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(percent / 100);
}
