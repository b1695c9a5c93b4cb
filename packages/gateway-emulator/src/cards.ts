/** What a test card does when charged, as the providers document their test cards. */
export type CardBehaviour =
  | { kind: 'ok' }
  | { kind: 'decline'; code: string; declineCode: string; message: string }
  | { kind: 'three_d_secure' }
  /** Saves fine; every charge is declined (Stripe's 4000 0000 0000 0341). */
  | { kind: 'charge_fails' };

export interface TestCard {
  brand: string;
  behaviour: CardBehaviour;
  note: string;
}

const DECLINED = 'Your card was declined.';

/** Stripe's documented test cards this emulator honours; any other valid number behaves like 4242. */
export const STRIPE_TEST_CARDS: Record<string, TestCard> = {
  '4242424242424242': { brand: 'visa', behaviour: { kind: 'ok' }, note: 'Succeeds' },
  '5555555555554444': { brand: 'mastercard', behaviour: { kind: 'ok' }, note: 'Succeeds (Mastercard)' },
  '4000000000000002': {
    brand: 'visa',
    behaviour: { kind: 'decline', code: 'card_declined', declineCode: 'generic_decline', message: DECLINED },
    note: 'Declined',
  },
  '4000000000009995': {
    brand: 'visa',
    behaviour: {
      kind: 'decline',
      code: 'card_declined',
      declineCode: 'insufficient_funds',
      message: 'Your card has insufficient funds.',
    },
    note: 'Insufficient funds',
  },
  '4000002500003155': { brand: 'visa', behaviour: { kind: 'three_d_secure' }, note: 'Asks for 3-D Secure' },
  '4000000000000341': {
    brand: 'visa',
    behaviour: { kind: 'charge_fails' },
    note: 'Saves, then every charge fails (renewal failures)',
  },
};

/** Luhn check: what the card form refuses before anything is sent. */
export function luhnValid(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i -= 1) {
    let digit = Number(number[i]);
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
    double = !double;
  }
  return sum % 10 === 0;
}

export function brandOf(number: string): string {
  if (number.startsWith('4')) return 'visa';
  if (/^5[1-5]/.test(number) || /^2[2-7]/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  return 'unknown';
}

export function stripeCard(number: string): TestCard {
  return STRIPE_TEST_CARDS[number] ?? { brand: brandOf(number), behaviour: { kind: 'ok' }, note: 'Succeeds' };
}
