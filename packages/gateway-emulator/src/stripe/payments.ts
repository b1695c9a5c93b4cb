import { luhnValid, stripeCard, type CardBehaviour } from '../cards';
import { Lifecycle } from '../core/lifecycle';
import type { Obj } from '../core/store';
import type { StripeContext } from './context';
import { invalidRequest, refuse } from './dialect';
import {
  billingDetails,
  chargeObject,
  paymentIntentObject,
  paymentMethodObject,
  refundObject,
} from './objects';

type IntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

const CANCELABLE = [
  'requires_payment_method',
  'requires_capture',
  'requires_confirmation',
  'requires_action',
  'processing',
];
/** PaymentIntent statuses and what Stripe lets each become (confirm, 3-D Secure, decline, cancel). */
const intents = new Lifecycle<IntentStatus>({
  requires_payment_method: [
    'requires_confirmation',
    'requires_action',
    'succeeded',
    'requires_payment_method',
    'canceled',
  ],
  requires_confirmation: ['requires_action', 'succeeded', 'requires_payment_method', 'canceled'],
  requires_action: ['requires_action', 'succeeded', 'requires_payment_method', 'canceled'],
  processing: ['succeeded', 'requires_payment_method', 'canceled'],
  requires_capture: ['succeeded', 'canceled'],
  canceled: [],
  succeeded: [],
});

export type Failure = { code: string; declineCode: string; message: string };
const DECLINED: Failure = {
  code: 'card_declined',
  declineCode: 'generic_decline',
  message: 'Your card was declined.',
};

/** Cards, PaymentIntents and their charges, refunds and disputes. */
export class StripePayments {
  /** Called when an intent succeeds (the billing part pays the invoice behind it). */
  onSucceeded: (intent: Obj) => void = () => undefined;

  constructor(private readonly ctx: StripeContext) {
    ctx.includables.set('charge.refunds', (charge) => {
      const data = this.refundsOf(String(charge.id));
      return {
        object: 'list',
        data,
        has_more: false,
        url: `/v1/charges/${String(charge.id)}/refunds`,
      };
    });
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Payment methods

  createPaymentMethod(
    card: { number?: string; exp_month?: number; exp_year?: number; cvc?: string },
    billing: { name?: string; email?: string; address?: { postal_code?: string } } = {},
  ): Obj {
    const number = String(card.number ?? '').replace(/\s+/g, '');
    const cardError = (code: string, message: string, param: string) =>
      refuse(402, { type: 'card_error', code, message, param });
    if (!luhnValid(number)) cardError('incorrect_number', 'Your card number is incorrect.', 'number');
    const month = card.exp_month;
    const year = card.exp_year !== undefined && card.exp_year < 100 ? 2000 + card.exp_year : card.exp_year;
    if (
      !month ||
      month < 1 ||
      month > 12 ||
      !year ||
      new Date(Date.UTC(year, month, 1)) <= this.ctx.clock.now()
    ) {
      cardError('invalid_expiry_year', "Your card's expiration date is invalid.", 'exp_year');
    }
    if (card.cvc !== undefined && !/^\d{3,4}$/.test(card.cvc)) {
      cardError('invalid_cvc', "Your card's security code is invalid.", 'cvc');
    }
    const test = stripeCard(number);
    const method = paymentMethodObject(
      this.ctx.now(),
      { brand: test.brand, last4: number.slice(-4), expMonth: month!, expYear: year! },
      billingDetails({ name: billing.name, email: billing.email, postalCode: billing.address?.postal_code }),
    );
    this.ctx.store.meta('payment_methods', method.id).behaviour = test.behaviour;
    return this.ctx.save('payment_methods', method);
  }

  behaviourOf(paymentMethod: unknown): CardBehaviour {
    if (typeof paymentMethod !== 'string') return { kind: 'ok' };
    return (
      (this.ctx.store.meta('payment_methods', paymentMethod).behaviour as CardBehaviour) ?? { kind: 'ok' }
    );
  }

  // ---------------------------------------------------------------------------------------------------------------
  // PaymentIntents

  createIntent(values: Parameters<typeof paymentIntentObject>[1], emit = true): Obj {
    if (values.customer) {
      const customer = this.ctx.retrieve('customers', 'customer', values.customer, 'customer');
      if (customer.deleted)
        refuse(404, {
          type: 'invalid_request_error',
          code: 'resource_missing',
          message: `No such customer: '${values.customer}'`,
          param: 'customer',
        });
    }
    if (values.paymentMethod)
      this.ctx.retrieve('payment_methods', 'PaymentMethod', values.paymentMethod, 'payment_method');
    const intent = this.ctx.save('payment_intents', paymentIntentObject(this.ctx.now(), values));
    if (emit) this.ctx.emit('payment_intent.created', intent);
    return intent;
  }

  /** Confirms with the intent's (or a new) payment method: the charge succeeds, declines or asks 3-D Secure. */
  confirm(intent: Obj, values: { paymentMethod?: string; offSession?: boolean }) {
    const status = intent.status as IntentStatus;
    if (
      status === 'canceled' ||
      status === 'succeeded' ||
      status === 'processing' ||
      status === 'requires_capture'
    ) {
      refuse(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message:
          status === 'canceled'
            ? 'You cannot confirm this PaymentIntent because it has been canceled.'
            : status === 'succeeded'
              ? 'You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.'
              : `You cannot confirm this PaymentIntent because it has a status of ${status}.`,
        payment_intent: intent,
      });
    }
    if (values.paymentMethod) {
      this.ctx.retrieve('payment_methods', 'PaymentMethod', values.paymentMethod, 'payment_method');
      intent.payment_method = values.paymentMethod;
    }
    if (!intent.payment_method) {
      refuse(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message:
          "You cannot confirm this PaymentIntent because it's missing a payment method. To confirm the PaymentIntent with cus, you must provide a payment method.",
        payment_intent: intent,
      });
    }
    const result = this.attemptCharge(intent, { offSession: values.offSession === true });
    if ('error' in result) refuse(402, result.error);
    return this.ctx.retrieve('payment_intents', 'payment_intent', intent.id);
  }

  cancel(intent: Obj, reason: string | undefined): Obj {
    if (this.ctx.store.meta('payment_intents', intent.id).invoice) {
      invalidRequest('You cannot cancel this PaymentIntent because it was created by an invoice.', {
        code: 'payment_intent_unexpected_state',
      });
    }
    intents.move(intent, 'canceled', (from) =>
      refuse(400, {
        type: 'invalid_request_error',
        code: 'payment_intent_unexpected_state',
        message: `You cannot cancel this PaymentIntent because it has a status of ${from}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(', ')}.`,
        payment_intent: intent,
      }),
    );
    intent.canceled_at = this.ctx.now();
    intent.cancellation_reason = reason ?? null;
    intent.next_action = null;
    this.ctx.save('payment_intents', intent);
    this.ctx.emit('payment_intent.canceled', intent);
    return intent;
  }

  /**
   * One attempt to charge an intent with its payment method. On-session 3-D Secure cards stop at
   * `requires_action` until authenticated; `forced` decides the outcome (control routes, renewals made to fail).
   */
  attemptCharge(
    intent: Obj,
    options: { offSession: boolean; authenticated?: boolean; forced?: 'paid' | 'failed' },
  ): { ok: true } | { error: Record<string, unknown> } | { action: true } {
    const behaviour = this.behaviourOf(intent.payment_method);
    let failure: Failure | null = null;
    if (options.forced === 'failed') failure = DECLINED;
    else if (options.forced !== 'paid') {
      if (behaviour.kind === 'decline') failure = behaviour;
      if (behaviour.kind === 'charge_fails') failure = DECLINED;
      if (behaviour.kind === 'three_d_secure' && !options.offSession && !options.authenticated) {
        intent.status = 'requires_action';
        intent.next_action = {
          type: 'use_stripe_sdk',
          use_stripe_sdk: {
            type: 'three_d_secure_redirect',
            stripe_js: `${this.ctx.baseUrl}/_3ds/${intent.id}?client_secret=${encodeURIComponent(String(intent.client_secret))}`,
          },
        };
        this.ctx.save('payment_intents', intent);
        this.ctx.emit('payment_intent.requires_action', intent);
        return { action: true };
      }
    }
    const method = this.ctx.find('payment_methods', intent.payment_method as string);
    const charge = this.ctx.save('charges', chargeObject(this.ctx.now(), intent, method, failure));
    this.ctx.store.meta('charges', charge.id).refunds = [];
    intent.latest_charge = charge.id;
    intent.next_action = null;
    if (failure) {
      const error = {
        type: 'card_error',
        code: failure.code,
        decline_code: failure.declineCode,
        message: failure.message,
        charge: charge.id,
        doc_url: `https://docs.stripe.com/error-codes/${failure.code.replace(/_/g, '-')}`,
        payment_method: method ?? null,
      };
      intent.status = 'requires_payment_method';
      intent.last_payment_error = error;
      this.ctx.save('payment_intents', intent);
      this.ctx.emit('charge.failed', charge);
      this.ctx.emit('payment_intent.payment_failed', intent);
      return { error: { ...error, payment_intent: intent } };
    }
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.last_payment_error = null;
    this.ctx.save('payment_intents', intent);
    this.ctx.emit('charge.succeeded', charge);
    this.ctx.emit('payment_intent.succeeded', intent);
    this.onSucceeded(intent);
    return { ok: true };
  }

  // ---------------------------------------------------------------------------------------------------------------
  // Refunds

  refundsOf(chargeId: string): Obj[] {
    const ids = (this.ctx.store.meta('charges', chargeId).refunds as string[] | undefined) ?? [];
    return ids.map((id) => this.ctx.find('refunds', id)!).reverse();
  }

  /** The charge a refund or dispute names (a charge id, or a PaymentIntent's latest charge). */
  chargeOf(values: { charge?: string; paymentIntent?: string }): Obj {
    if (values.charge) return this.ctx.retrieve('charges', 'charge', values.charge, 'charge');
    if (!values.paymentIntent)
      return refuse(400, {
        type: 'invalid_request_error',
        code: 'parameter_missing',
        message: 'One of the following params should be provided for this request: payment_intent or charge.',
      });
    const intent = this.ctx.retrieve(
      'payment_intents',
      'payment_intent',
      values.paymentIntent,
      'payment_intent',
    );
    const charge = this.ctx.find('charges', intent.latest_charge as string);
    if (!charge || charge.status !== 'succeeded') {
      invalidRequest(`This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, {
        code: 'charge_not_refundable',
        param: 'payment_intent',
      });
    }
    return charge!;
  }

  /** Refunds all or part of what remains of a charge, as Stripe allows it. */
  refund(charge: Obj, values: { amount?: number; reason?: string | null; metadata?: object }): Obj {
    if (charge.status !== 'succeeded') {
      invalidRequest(`Charge ${charge.id} cannot be refunded because it has not succeeded.`, {
        code: 'charge_not_refundable',
      });
    }
    const dispute = this.ctx.find('disputes', this.ctx.store.meta('charges', charge.id).dispute as string);
    if (dispute && !dispute.is_charge_refundable) {
      invalidRequest(`Charge ${charge.id} has been charged back; cannot issue a refund.`, {
        code: 'charge_disputed',
      });
    }
    const remaining = Number(charge.amount) - Number(charge.amount_refunded);
    if (remaining <= 0) {
      invalidRequest(`Charge ${charge.id} has already been refunded.`, { code: 'charge_already_refunded' });
    }
    const amount = values.amount ?? remaining;
    if (amount <= 0) invalidRequest('Invalid positive integer', { param: 'amount' });
    if (amount > remaining) {
      const currency = String(charge.currency);
      invalidRequest(
        `Refund amount (${show(amount, currency)}) is greater than unrefunded amount on charge (${show(remaining, currency)})`,
        { code: 'amount_too_large', param: 'amount' },
      );
    }
    const refund = this.ctx.save(
      'refunds',
      refundObject(this.ctx.now(), charge, {
        amount,
        reason: values.reason ?? null,
        metadata: values.metadata,
      }),
    );
    (this.ctx.store.meta('charges', charge.id).refunds as string[]).push(refund.id);
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    charge.amount_refunded = Number(charge.amount_refunded) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    this.ctx.save('charges', charge);
    this.ctx.emit('refund.created', refund);
    this.ctx.emit('charge.refunded', charge, previous);
    return refund;
  }

  /** A refund that the card network returns later (Stripe's asynchronous refund failure). */
  failRefund(refund: Obj): Obj {
    if (refund.status !== 'succeeded' && refund.status !== 'pending') {
      invalidRequest(`Refund ${refund.id} has a status of ${String(refund.status)}.`);
    }
    const previous = { status: refund.status };
    refund.status = 'failed';
    refund.failure_reason = 'expired_or_canceled_card';
    refund.failure_balance_transaction = `txn_${refund.id.slice(3)}`;
    this.ctx.save('refunds', refund);
    const charge = this.ctx.retrieve('charges', 'charge', String(refund.charge));
    charge.amount_refunded = Number(charge.amount_refunded) - Number(refund.amount);
    charge.refunded = false;
    this.ctx.save('charges', charge);
    this.ctx.emit('refund.updated', refund, previous);
    this.ctx.emit('refund.failed', refund, previous);
    this.ctx.emit('charge.refund.updated', refund, previous);
    return refund;
  }
}

function show(amount: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(
    amount / 100,
  );
}
