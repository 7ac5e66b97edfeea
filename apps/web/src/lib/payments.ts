/** Cents as money in the reader's language: `700` usd → `$7.00`; `whole` drops `.00`. */
export function formatCents(
  locale: string,
  cents: number,
  currency: string,
  { whole = false }: { whole?: boolean } = {},
): string {
  const amount = cents / 100;
  const digits = whole && Number.isInteger(amount) ? 0 : 2;
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    minimumFractionDigits: digits,
    maximumFractionDigits: 2,
  }).format(amount);
}
