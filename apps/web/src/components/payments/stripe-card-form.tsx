import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import {
  loadStripe,
  type Stripe,
  type StripeCardElement,
  type StripeElementLocale,
} from '@stripe/stripe-js';
import { PAYMENT_MESSAGES } from '@mirror/contract';
import { Spinner } from '../ui/spinner';
import { useI18n } from '../../lib/i18n';
import type { CardFormHandle } from './card-form';

// Loaded only when Stripe is configured (this module is imported lazily by the checkout):
// `loadStripe` fetches Stripe.js from Stripe's host, once per key.
const stripes = new Map<string, Promise<Stripe | null>>();

function getStripe(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripes.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey);
    // A failed load (offline, blocked) may be retried by the next checkout.
    stripe.catch(() => stripes.delete(publishableKey));
    stripes.set(publishableKey, stripe);
  }
  return stripe;
}

/** Stripe Elements speaks our languages except Hindi, where it follows the browser. */
const STRIPE_LOCALES: readonly string[] = ['ar', 'en', 'es', 'id', 'ru', 'th', 'zh'];

/**
 * Stripe's Card Element: the card is typed into Stripe's own frame and never reaches our page or
 * server; we only see the payment method id `stripe.createPaymentMethod` answers.
 */
export function StripeCardForm({
  ref,
  publishableKey,
}: {
  ref: Ref<CardFormHandle>;
  publishableKey: string;
}) {
  const { t, locale } = useI18n();
  const mountRef = useRef<HTMLDivElement>(null);
  const stripeRef = useRef<{ stripe: Stripe; card: StripeCardElement } | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'error'>('loading');
  const [cardError, setCardError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    let card: StripeCardElement | null = null;
    getStripe(publishableKey)
      .then((stripe) => {
        if (cancelled || !mountRef.current) return;
        if (!stripe) throw new Error(PAYMENT_MESSAGES.initFailed);
        const elements = stripe.elements({
          locale: (STRIPE_LOCALES.includes(locale) ? locale : 'auto') as StripeElementLocale,
        });
        card = elements.create('card');
        card.on('change', (event) => setCardError(event.error?.message ?? null));
        card.mount(mountRef.current);
        stripeRef.current = { stripe, card };
        setState('ready');
      })
      .catch((error: unknown) => {
        console.error('Could not load Stripe.js', error);
        if (!cancelled) setState('error');
      });
    return () => {
      cancelled = true;
      stripeRef.current = null;
      card?.destroy();
    };
  }, [publishableKey, locale]);

  useImperativeHandle(ref, () => ({
    createPaymentMethod: async () => {
      const loaded = stripeRef.current;
      if (!loaded) throw new Error(t('payments.initFailed'));
      const { paymentMethod, error } = await loaded.stripe.createPaymentMethod({
        type: 'card',
        card: loaded.card,
      });
      if (error) throw new Error(error.message ?? PAYMENT_MESSAGES.paymentFailed);
      return paymentMethod.id;
    },
    confirmPayment: async (clientSecret: string) => {
      const loaded = stripeRef.current;
      if (!loaded) throw new Error(t('payments.initFailed'));
      const { error } = await loaded.stripe.confirmCardPayment(clientSecret);
      if (error) throw new Error(error.message ?? PAYMENT_MESSAGES.authenticationFailed);
    },
  }));

  return (
    <div className="field">
      <span className="field-label">{t('payments.card.details')}</span>
      <div
        ref={mountRef}
        className="input stripe-card"
        data-state={state}
        aria-busy={state === 'loading' || undefined}
      />
      {state === 'loading' && (
        <p className="field-hint" role="status">
          <Spinner /> {t('payments.checkout.loading')}
        </p>
      )}
      {state === 'error' && (
        <p className="field-error" role="alert">
          {t('payments.initFailed')}
        </p>
      )}
      {cardError && (
        <p className="field-error" role="alert">
          {cardError}
        </p>
      )}
    </div>
  );
}
