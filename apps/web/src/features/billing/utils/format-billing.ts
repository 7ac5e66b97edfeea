/** A date sent as unix seconds (Stripe's way), in the reader's language. */
export function formatUnixDate(locale: string, seconds: number | null | undefined): string {
  if (seconds == null) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(seconds * 1000));
}
