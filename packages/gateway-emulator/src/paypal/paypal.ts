import { formatMoney, toDecimalString } from '@backbeat/contract';
import type { Clock } from '../core/clock';
import { controlRoutes } from '../core/control';
import { escapeHtml, page } from '../core/pages';
import {
  basicAuth,
  html,
  json,
  route,
  Router,
  type EmulatorRequest,
  type EmulatorResponse,
  type RouteSpec,
} from '../core/router';
import { randomId, type Obj, type Store } from '../core/store';
import type { WebhookDispatcher } from '../core/webhooks';
import { PaypalBilling } from './billing';
import { PaypalContext } from './context';
import { PaypalDialect, toMinor, type PaypalCredentials } from './dialect';
import { PaypalDisputes } from './disputes';
import { PaypalOrders } from './orders';
import { PaypalSales } from './sales';
import { paypalControl } from './control';
import { paypalRoutes } from './routes';

/**
 * PayPal's REST API (OAuth, Orders v2, Payments v2, v1 sales, catalog products, billing plans and subscriptions,
 * Transaction Search, disputes, webhook events and their verification) with state, approval pages, and webhooks
 * signed as PayPal signs them (SHA256withRSA with the emulator's own key, checked by verify-webhook-signature).
 */
export class PaypalEmulator {
  readonly router: Router;
  readonly ctx: PaypalContext;
  readonly orders: PaypalOrders;
  readonly billing: PaypalBilling;
  readonly sales: PaypalSales;
  readonly disputes: PaypalDisputes;
  private readonly dialect: PaypalDialect;

  constructor(credentials: PaypalCredentials, store: Store, clock: Clock, webhooks: WebhookDispatcher) {
    this.ctx = new PaypalContext(credentials, store, clock, webhooks);
    this.orders = new PaypalOrders(this.ctx);
    this.billing = new PaypalBilling(this.ctx);
    this.sales = new PaypalSales(this.ctx, this.billing);
    this.disputes = new PaypalDisputes(this.ctx, this.orders, this.sales);
    this.dialect = new PaypalDialect(clock);
    this.router = new Router(this.dialect)
      .add(...paypalRoutes(this))
      .add(...this.approvalPages())
      .add(...paypalControl(this))
      .add(...controlRoutes('paypal', clock, webhooks));
    clock.onAdvance(() => this.billing.processDue());
  }

  /** OAuth client credentials, answered with OAuth's own error shape `{ error, error_description }`. */
  token(request: EmulatorRequest): EmulatorResponse {
    const auth = basicAuth(request.headers);
    if (auth?.user !== this.ctx.credentials.clientId || auth.password !== this.ctx.credentials.clientSecret) {
      return json(401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
    }
    if (request.body.grant_type !== 'client_credentials') {
      return json(400, { error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' });
    }
    const token = `A21AA${randomId('', 60)}`;
    this.dialect.tokens.add(token);
    return json(200, {
      scope:
        'https://uri.paypal.com/services/payments/payment https://uri.paypal.com/services/subscriptions https://uri.paypal.com/services/reporting/search/read https://uri.paypal.com/services/disputes/read-seller',
      access_token: token,
      token_type: 'Bearer',
      app_id: 'APP-80W284485P519543T',
      expires_in: 32400,
      nonce: `${this.ctx.iso()}${randomId('', 20)}`,
    });
  }

  findOrder(id: string): Obj | undefined {
    return this.ctx.find('orders', id);
  }

  findSubscription(id: string): Obj | undefined {
    return this.ctx.find('subscriptions', id);
  }

  approveOrder(id: string, buyer: 'pays' | 'declined', overrideAmount?: string): Obj {
    return this.orders.approve(id, buyer, overrideAmount);
  }

  bill(subscription: Obj, forced?: 'paid' | 'failed'): void {
    this.billing.bill(subscription, forced);
  }

  cancelSubscription(id: string, reason?: string): Obj {
    return this.billing.cancel(id, reason);
  }

  refundCapture(captureId: string, amountValue?: string): Obj {
    const capture = this.ctx.get('captures', captureId);
    const currency = (capture.amount as { currency_code: string }).currency_code;
    return this.orders.refund(captureId, {
      amount: amountValue ? { currency_code: currency, value: amountValue } : undefined,
    });
  }

  dispute(transactionId: string): Obj {
    return this.disputes.open(transactionId);
  }

  resolveDispute(id: string, favour: 'buyer' | 'seller'): Obj {
    return this.disputes.resolve(id, favour);
  }

  /** For tests: a capture's amount as minor units, to compare with an order's. */
  static minor(value: string, currency: string): number {
    return toMinor(value, currency);
  }

  static decimal(minor: number, currency: string): string {
    return toDecimalString(minor, currency);
  }

  /** PayPal's approval window (a popup or modal) for an order or a subscription, with the two test buyers. */
  private approvalPages(): Array<RouteSpec<unknown, unknown>> {
    const text = (value: unknown) => (typeof value === 'string' ? value : '');
    return [
      route('GET /checkoutnow', 'none', {
        handler: ({ request }) => this.approvalPage(text(request.query.token), 'order'),
      }),
      route('GET /webapps/billing/subscriptions', 'none', {
        handler: ({ request }) => this.approvalPage(text(request.query.subscription_id), 'subscription'),
      }),
    ];
  }

  private approvalPage(id: string, kind: 'order' | 'subscription'): EmulatorResponse {
    const record = kind === 'order' ? this.ctx.find('orders', id) : this.ctx.find('subscriptions', id);
    if (!record) return html(404, page('PayPal', '#0070ba', '<h1>Unknown order</h1>'));
    let amount: string;
    let description = 'Subscription';
    if (kind === 'order') {
      const unit = (
        record.purchase_units as Array<{
          amount: { currency_code: string; value: string };
          description?: string;
        }>
      )[0]!;
      amount = formatMoney(toMinor(unit.amount.value, unit.amount.currency_code), unit.amount.currency_code);
      description = unit.description ?? 'Your order';
    } else {
      const price = this.billing.price(record);
      amount = `${formatMoney(toMinor(price.value, price.currency_code), price.currency_code)} every ${price.months} month(s)`;
    }
    return html(
      200,
      page(
        'PayPal Checkout',
        '#0070ba',
        `<h1>Pay with PayPal</h1><p class="muted">${escapeHtml(description)}</p><div class="amount">${escapeHtml(amount)}</div>
<form class="card" id="approve"><fieldset style="border:0;padding:0;margin:0"><legend style="font-weight:600">Test buyer</legend>
<label style="font-weight:400"><input type="radio" name="buyer" value="pays" checked style="width:auto"> buyer@example.com (pays)</label>
<label style="font-weight:400"><input type="radio" name="buyer" value="declined" style="width:auto"> declined-buyer@example.com (instrument declined)</label></fieldset>
<button type="submit">${kind === 'order' ? 'Pay now' : 'Agree &amp; Subscribe'}</button><button type="button" class="secondary" id="cancel">Cancel and return</button>
<p class="error" id="error" role="alert"></p></form>`,
        `const tell=(data)=>{const target=window.opener||window.parent;if(target&&target!==window)target.postMessage(data,'*');};
document.getElementById('approve').onsubmit=async(e)=>{e.preventDefault();const buyer=new FormData(e.target).get('buyer');
const res=await fetch('/_emulator/approve/${kind}/${encodeURIComponent(id)}',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify({buyer})});
const body=await res.json();if(!res.ok){const message=(body.details&&body.details[0]&&body.details[0].description)||body.message;document.getElementById('error').textContent=message;tell({type:'paypal:error',message});return;}
tell(Object.assign({type:'paypal:approved'},body));if(window.opener)window.close();};
document.getElementById('cancel').onclick=()=>{tell({type:'paypal:cancelled',id:${JSON.stringify(id)}});if(window.opener)window.close();};`,
      ),
    );
  }
}
