import { z } from 'zod';
import { formatMoney } from '@backbeat/contract';
import { STRIPE_TEST_CARDS } from '../cards';
import type { Clock } from '../core/clock';
import { controlRoutes } from '../core/control';
import { escapeHtml, page } from '../core/pages';
import { html, json, Refusal, route, Router, type RouteSpec } from '../core/router';
import type { Obj, Store } from '../core/store';
import type { WebhookDispatcher } from '../core/webhooks';
import { StripeBilling } from './billing';
import { StripeContext } from './context';
import { StripeDialect, type StripeCredentials } from './dialect';
import { StripeDisputes } from './disputes';
import { StripePayments } from './payments';
import { completeSetup, stripeRoutes } from './routes';

const outcome = z.object({ outcome: z.enum(['paid', 'failed']).optional() });

/**
 * Stripe's REST API (the part stripe-node calls for Backbeat and that Stripe.js calls from the browser), with state,
 * the 3-D Secure page, control routes, and webhooks signed exactly as Stripe signs them.
 */
export class StripeEmulator {
  readonly router: Router;
  readonly payments: StripePayments;
  readonly billing: StripeBilling;
  readonly disputes: StripeDisputes;
  readonly ctx: StripeContext;

  constructor(credentials: StripeCredentials, store: Store, clock: Clock, webhooks: WebhookDispatcher) {
    this.ctx = new StripeContext(credentials, store, clock, webhooks);
    this.payments = new StripePayments(this.ctx);
    this.billing = new StripeBilling(this.ctx, this.payments);
    this.disputes = new StripeDisputes(this.ctx);
    this.router = new Router(new StripeDialect(credentials, clock))
      .add(...stripeRoutes(this.ctx, this.payments, this.billing))
      .add(...this.threeDSecure())
      .add(...this.control())
      .add(...controlRoutes('stripe', clock, webhooks));
    clock.onAdvance(() => this.billing.processDue());
  }

  findSubscription(id: string): Obj | undefined {
    return this.ctx.find('subscriptions', id);
  }

  /** Charges the next period now (paid or failed). */
  renew(subscription: Obj, forced?: 'paid' | 'failed'): Obj {
    return this.billing.renew(subscription, forced);
  }

  /** Ends a subscription at once, as a failed dunning run or the dashboard would. */
  deleteSubscription(id: string): Obj | null {
    const subscription = this.ctx.find('subscriptions', id);
    return subscription ? this.billing.cancel(subscription) : null;
  }

  /** Refunds a charge (or a PaymentIntent's charge) as the merchant would from the dashboard; all that remains by default. */
  refundFromDashboard(chargeOrIntent: string, amount?: number): Obj | null {
    const charge = this.chargeOf(chargeOrIntent);
    if (!charge) return null;
    return this.payments.refund(charge, { amount, reason: 'requested_by_customer' });
  }

  /** Opens a dispute on a charge (or on a PaymentIntent's charge). */
  dispute(chargeOrIntent: string): Obj | null {
    const charge = this.chargeOf(chargeOrIntent);
    return charge ? this.disputes.open(charge) : null;
  }

  closeDispute(id: string, result: 'won' | 'lost'): Obj {
    return this.disputes.close(this.ctx.retrieve('disputes', 'dispute', id), result);
  }

  failRefund(id: string): Obj {
    return this.payments.failRefund(this.ctx.retrieve('refunds', 'refund', id));
  }

  /** The test cards, for the card form and the README. */
  static testCards(): Array<{ number: string; note: string }> {
    return Object.entries(STRIPE_TEST_CARDS).map(([number, card]) => ({ number, note: card.note }));
  }

  private chargeOf(chargeOrIntent: string): Obj | undefined {
    const charge = this.ctx.find('charges', chargeOrIntent);
    if (charge) return charge;
    const intent = this.ctx.find('payment_intents', chargeOrIntent);
    return this.ctx.find('charges', intent?.latest_charge as string);
  }

  /** Control answers refusals as `{ message }` plus Stripe's error, so tests see why. */
  private control(): Array<RouteSpec<unknown, unknown>> {
    const subscription = (id: string) => this.findSubscription(id) ?? refused(`no such subscription: ${id}`);
    return [
      route('POST /_emulator/subscriptions/:id/renew', 'none', {
        input: outcome,
        handler: ({ input, param }) => json(200, this.renew(subscription(param('id')), input.outcome)),
      }),
      route('POST /_emulator/subscriptions/:id/delete', 'none', {
        handler: ({ param }) => json(200, this.billing.cancel(subscription(param('id')))),
      }),
      route('POST /_emulator/charges/:id/refund', 'none', {
        input: z.object({ amount: z.coerce.number().int().positive().optional() }),
        handler: ({ input, param }) =>
          json(200, this.refundFromDashboard(param('id'), input.amount) ?? refused('no refundable charge')),
      }),
      route('POST /_emulator/charges/:id/dispute', 'none', {
        handler: ({ param }) => json(200, this.dispute(param('id')) ?? refused('no such charge')),
      }),
      route('POST /_emulator/disputes/:id/close', 'none', {
        input: z.object({ outcome: z.enum(['won', 'lost']) }),
        handler: ({ input, param }) => json(200, this.closeDispute(param('id'), input.outcome)),
      }),
      route('POST /_emulator/refunds/:id/fail', 'none', {
        handler: ({ param }) => json(200, this.failRefund(param('id'))),
      }),
    ];
  }

  /** The authentication page Stripe.js opens for 3-D Secure, and its answer. */
  private threeDSecure(): Array<RouteSpec<unknown, unknown>> {
    const intentOf = (id: string, secret: unknown) => {
      const intent = this.ctx.find(id.startsWith('seti_') ? 'setup_intents' : 'payment_intents', id);
      return intent && intent.client_secret === secret ? intent : undefined;
    };
    return [
      route('GET /_3ds/:id', 'none', {
        handler: ({ request, param }) => {
          const id = param('id');
          const intent = intentOf(id, request.query.client_secret);
          if (!intent) return html(404, page('Not found', '#635bff', '<h1>Unknown payment</h1>'));
          const amount =
            typeof intent.amount === 'number'
              ? formatMoney(intent.amount, String(intent.currency).toUpperCase())
              : 'Saving your card';
          return html(
            200,
            page(
              '3-D Secure',
              '#635bff',
              `<h1>3-D Secure authentication</h1><p class="muted">Your bank asks you to confirm: <strong>${escapeHtml(amount)}</strong></p>
<div class="card"><button id="complete">Complete authentication</button><button class="secondary" id="fail">Fail authentication</button></div>`,
              `const decide=(outcome)=>fetch(location.pathname.replace('/_3ds/','/_emulator/3ds/'),{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({client_secret:${JSON.stringify(intent.client_secret)},outcome})}).then(()=>parent.postMessage({type:'backbeat-emulator:3ds-done',id:${JSON.stringify(id)}},'*'));
document.getElementById('complete').onclick=()=>decide('complete');document.getElementById('fail').onclick=()=>decide('fail');`,
            ),
          );
        },
      }),
      route('POST /_emulator/3ds/:id', 'none', {
        input: z.object({ client_secret: z.string(), outcome: z.enum(['complete', 'fail']) }),
        handler: ({ input, param }) => {
          const id = param('id');
          const setup = id.startsWith('seti_');
          const intent = intentOf(id, input.client_secret);
          if (!intent) return json(404, { error: 'unknown intent' });
          if (intent.status !== 'requires_action')
            return json(409, { error: `intent is ${String(intent.status)}` });
          if (input.outcome === 'complete') {
            if (setup) completeSetup(this.ctx, intent);
            else this.payments.attemptCharge(intent, { offSession: false, authenticated: true });
            return json(200, { ok: true });
          }
          const error = {
            type: 'invalid_request_error',
            code: setup ? 'setup_intent_authentication_failure' : 'payment_intent_authentication_failure',
            message:
              'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
          };
          Object.assign(intent, { status: 'requires_payment_method', next_action: null });
          intent[setup ? 'last_setup_error' : 'last_payment_error'] = error;
          this.ctx.save(setup ? 'setup_intents' : 'payment_intents', intent);
          this.ctx.emit(setup ? 'setup_intent.setup_failed' : 'payment_intent.payment_failed', intent);
          return json(200, { ok: true });
        },
      }),
    ];
  }
}

function refused(message: string): never {
  throw new Refusal(json(404, { message }));
}
