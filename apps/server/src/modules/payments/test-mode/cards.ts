import { PAYMENT_MESSAGES, TEST_CARDS } from '@mirror/contract';
import type { TestCardBehaviour } from '../../../platform/db/schema.js';

/**
 * What the local test mode keeps of a card: its brand, last four digits, expiry and how it behaves
 * when charged, as Stripe's test cards do. The number itself is looked at here and then dropped.
 */
export interface TestCardFacts {
  brand: string;
  last4: string;
  behaviour: TestCardBehaviour;
  /** What a charge answers when the card declines. */
  declineMessage: string | null;
}

export type TestCardProblem = 'invalid' | 'expired' | 'cvc';

/** Stripe's test numbers with a behaviour other than "succeeds". */
const SPECIAL_CARDS: Record<string, { behaviour: TestCardBehaviour; message?: string }> = {
  [TEST_CARDS.declined]: { behaviour: 'declines', message: PAYMENT_MESSAGES.cardDeclined },
  [TEST_CARDS.requiresAuthentication]: { behaviour: 'authenticates' },
  '4000002760003184': { behaviour: 'authenticates' },
  '4000000000009995': { behaviour: 'declines', message: 'Your card has insufficient funds.' },
  '4000000000009987': { behaviour: 'declines', message: PAYMENT_MESSAGES.cardDeclined },
  '4000000000009979': { behaviour: 'declines', message: PAYMENT_MESSAGES.cardDeclined },
  '4000000000000069': { behaviour: 'declines', message: PAYMENT_MESSAGES.cardExpired },
  '4000000000000127': { behaviour: 'declines', message: "Your card's security code is incorrect." },
};

export function passesLuhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** The card network, by the number's leading digits (IIN ranges), named as Stripe names them. */
export function brandOf(number: string): string {
  const prefix = (n: number) => Number(number.slice(0, n));
  if (/^4/.test(number)) return 'visa';
  if ((prefix(2) >= 51 && prefix(2) <= 55) || (prefix(4) >= 2221 && prefix(4) <= 2720))
    return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  if (
    /^(6011|65)/.test(number) ||
    (prefix(3) >= 644 && prefix(3) <= 649) ||
    (prefix(6) >= 622126 && prefix(6) <= 622925)
  )
    return 'discover';
  if (/^3(0[0-5]|[689])/.test(number)) return 'diners';
  if (prefix(4) >= 3528 && prefix(4) <= 3589) return 'jcb';
  if (/^62/.test(number)) return 'unionpay';
  return 'unknown';
}

/** Checks a card as a card network would before any charge; null when it is acceptable. */
export function cardProblem(
  card: { number: string; expMonth: number; expYear: number; cvc: string },
  now = new Date(),
): TestCardProblem | null {
  if (!/^\d{12,19}$/.test(card.number) || !passesLuhn(card.number)) return 'invalid';
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  if (card.expYear < year || (card.expYear === year && card.expMonth < month)) return 'expired';
  if (card.cvc.length !== (brandOf(card.number) === 'amex' ? 4 : 3)) return 'cvc';
  return null;
}

export function testCardFacts(number: string): TestCardFacts {
  const special = SPECIAL_CARDS[number];
  return {
    brand: brandOf(number),
    last4: number.slice(-4),
    behaviour: special?.behaviour ?? 'succeeds',
    declineMessage: special?.behaviour === 'declines' ? (special.message ?? null) : null,
  };
}
