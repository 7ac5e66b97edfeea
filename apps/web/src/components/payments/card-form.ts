/**
 * What the checkout needs from a card form, whichever provider answers: the local test mode's form
 * (`test-card-form.tsx`) or Stripe's Card Element (`stripe-card-form.tsx`).
 */
export interface CardFormHandle {
  /**
   * Turns the entered card into the provider's payment method id; null when the form shows what
   * to fix. Throws with a message for the screen when the provider refuses the card.
   */
  createPaymentMethod: () => Promise<string | null>;
  /**
   * Stripe only: lets the card holder confirm a payment that needs authentication (3-D Secure),
   * in Stripe's own dialog. The test mode asks in our `ThreeDSecureDialog` instead.
   */
  confirmPayment?: (clientSecret: string) => Promise<void>;
}
