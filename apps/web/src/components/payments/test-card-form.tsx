import { useId, useImperativeHandle, useState, type Ref } from 'react';
import { TEST_CARDS } from '@mirror/contract';
import { FormField } from '../ui/form-field';
import { useI18n } from '../../lib/i18n';
import { createTestPaymentMethod, type TestCard } from '../../api/payments';
import type { CardFormHandle } from './card-form';

type Field = 'number' | 'expiry' | 'cvc';
type Values = Record<Field, string>;
type Errors = Partial<Record<Field, string>>;

/** `4242424242424242` → `4242 4242 4242 4242`. */
export function groupCardNumber(value: string): string {
  return value
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

/**
 * The expiry as the user types it, shown as MM/YY (or MM/YYYY): only digits are kept and the slash
 * comes after the month (`1229` → `12/29`, `4` → `04`, `1/29` → `01/29`). The slash is added once
 * the year starts, so deleting it with Backspace is not undone.
 */
export function formatExpiry(value: string): string {
  const oneDigitMonth = /^\s*(\d)\s*\/(.*)$/.exec(value);
  let digits = oneDigitMonth
    ? `0${oneDigitMonth[1]}${oneDigitMonth[2]!.replace(/\D/g, '')}`
    : value.replace(/\D/g, '');
  // A month cannot start with 2 to 9: that digit is the month itself.
  if (/^[2-9]/.test(digits)) digits = `0${digits}`;
  digits = digits.slice(0, 6);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

/** `MM/YY` or `MM/YYYY` → month and four-digit year; null when it is neither. */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const match =
    /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(value.trim()) ?? /^(\d{2})(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const month = Number(match[1]);
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  return month >= 1 && month <= 12 ? { month, year } : null;
}

const TEST_CARD_ROWS = [
  { number: TEST_CARDS.succeeds, key: 'succeeds' },
  { number: TEST_CARDS.declined, key: 'declined' },
  { number: TEST_CARDS.requiresAuthentication, key: 'authentication' },
] as const;

/** The "test mode" label with the three test cards, so nobody mistakes it for a real checkout. */
export function TestModeNotice() {
  const { t } = useI18n();
  const headingId = useId();
  return (
    <aside className="test-mode-notice" aria-labelledby={headingId}>
      <p id={headingId} className="test-mode-title">
        {t('payments.testMode.title', { card: groupCardNumber(TEST_CARDS.succeeds) })}
      </p>
      <p className="test-mode-hint">{t('payments.testMode.hint')}</p>
      <ul className="test-mode-cards" aria-label={t('payments.testMode.cards')}>
        {TEST_CARD_ROWS.map((row) => (
          <li key={row.key}>
            <code dir="ltr">{groupCardNumber(row.number)}</code>{' '}
            <span>{t(`payments.testMode.${row.key}`)}</span>
          </li>
        ))}
      </ul>
    </aside>
  );
}

/**
 * The local test mode's card form: number, MM/YY and CVC. The card goes to the test mode's own
 * endpoint, which answers a payment method id as Stripe.js would; nothing else sees it.
 */
export function TestCardForm({ ref, disabled }: { ref: Ref<CardFormHandle>; disabled: boolean }) {
  const { t } = useI18n();
  const [values, setValues] = useState<Values>({ number: '', expiry: '', cvc: '' });
  const [errors, setErrors] = useState<Errors>({});

  const labels: Record<Field, string> = {
    number: t('payments.card.number'),
    expiry: t('payments.card.expiry'),
    cvc: t('payments.card.cvc'),
  };

  const validate = (field: Field, value: string): string | undefined => {
    const text = value.trim();
    if (text === '') return t('common.fieldRequired', { field: labels[field] });
    if (field === 'number') {
      return /^\d{12,19}$/.test(text.replace(/[\s-]/g, ''))
        ? undefined
        : t('payments.card.numberInvalid');
    }
    if (field === 'cvc') return /^\d{3,4}$/.test(text) ? undefined : t('payments.card.cvcInvalid');
    const expiry = parseExpiry(text);
    if (!expiry) return t('payments.card.expiryInvalid');
    const now = new Date();
    const expired =
      expiry.year < now.getFullYear() ||
      (expiry.year === now.getFullYear() && expiry.month < now.getMonth() + 1);
    return expired ? t('payments.card.expired') : undefined;
  };

  useImperativeHandle(ref, () => ({
    createPaymentMethod: async () => {
      const next: Errors = {
        number: validate('number', values.number),
        expiry: validate('expiry', values.expiry),
        cvc: validate('cvc', values.cvc),
      };
      setErrors(next);
      if (next.number || next.expiry || next.cvc) return null;
      const expiry = parseExpiry(values.expiry)!;
      const card: TestCard = {
        number: values.number.replace(/\D/g, ''),
        expMonth: expiry.month,
        expYear: expiry.year,
        cvc: values.cvc.trim(),
      };
      return (await createTestPaymentMethod(card)).id;
    },
  }));

  const fieldProps = (field: Field) => ({
    label: labels[field],
    value: values[field],
    error: errors[field],
    disabled,
    required: true,
    dir: 'ltr' as const,
    onChange: (event: { target: { value: string } }) => {
      const raw = event.target.value;
      const value =
        field === 'number' ? groupCardNumber(raw) : field === 'expiry' ? formatExpiry(raw) : raw;
      setValues((current) => ({ ...current, [field]: value }));
      // Once a field shows an error, it is checked again on every change.
      if (errors[field]) setErrors((current) => ({ ...current, [field]: validate(field, value) }));
    },
    onBlur: () => {
      if (values[field] !== '') {
        setErrors((current) => ({ ...current, [field]: validate(field, values[field]) }));
      }
    },
  });

  return (
    <div className="field-grid card-fields">
      <FormField
        {...fieldProps('number')}
        className="field-wide"
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="4242 4242 4242 4242"
        maxLength={23}
      />
      <FormField
        {...fieldProps('expiry')}
        inputMode="numeric"
        autoComplete="cc-exp"
        placeholder={t('payments.card.expiryPlaceholder')}
        maxLength={7}
      />
      <FormField
        {...fieldProps('cvc')}
        inputMode="numeric"
        autoComplete="cc-csc"
        placeholder="123"
        maxLength={4}
      />
    </div>
  );
}
