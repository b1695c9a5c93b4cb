import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { formatMoney } from '@backbeat/contract';
import { luhnValid } from '../cards';
import { escapeHtml, page } from '../core/pages';
import { html, json, route, type RouteSpec } from '../core/router';
import { razorpayError } from './dialect';
import type { PaymentError } from './objects';
import type { RazorpayEmulator } from './razorpay';

const DECLINED: PaymentError = {
  code: 'BAD_REQUEST_ERROR',
  description: 'Payment failed because the card was declined by the bank.',
  reason: 'payment_failed',
  source: 'customer',
  step: 'payment_authentication',
};

/** Razorpay Checkout's test page (what the Checkout stand-in opens in its frame) and its answer. */
export function checkoutRoutes(rzp: RazorpayEmulator): Array<RouteSpec<unknown, unknown>> {
  return [
    route('GET /_checkout', 'none', {
      handler: ({ request }) => checkoutPage(rzp, request.query),
    }),
    route('POST /_emulator/checkout/pay', 'none', {
      input: z.object({
        key: z.string().optional(),
        order_id: z.string().optional(),
        subscription_id: z.string().optional(),
        outcome: z.enum(['success', 'failure']).optional(),
        card: z.string().optional(),
        email: z.string().optional(),
      }),
      handler: ({ input }) => {
        if (input.key !== rzp.credentials.keyId) return razorpayError(401, 'The api key provided is invalid');
        const failure = input.outcome === 'failure' ? DECLINED : undefined;
        if (!failure && !luhnValid((input.card ?? '').replace(/\s+/g, ''))) {
          return json(400, { error: { description: 'Your card number is invalid.' } });
        }
        const email = input.email || undefined;
        const result = input.order_id
          ? rzp.payOrder(rzp.get('orders', input.order_id), failure, email)
          : rzp.paySubscription(rzp.get('subscriptions', input.subscription_id ?? ''), failure, email);
        if ('failure' in result && result.failure) {
          const metadata = input.order_id
            ? { order_id: input.order_id, payment_id: result.payment.id }
            : { subscription_id: input.subscription_id, payment_id: result.payment.id };
          return json(200, { failure: { ...result.failure, metadata } });
        }
        return json(200, { response: (result as { response: unknown }).response });
      },
    }),
  ];
}

function checkoutPage(rzp: RazorpayEmulator, query: Record<string, unknown>) {
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  const orderId = text(query.order_id);
  const subscriptionId = text(query.subscription_id);
  const order = rzp.find('orders', orderId);
  const subscription = rzp.find('subscriptions', subscriptionId);
  const plan = rzp.find('plans', subscription?.plan_id as string);
  const item = plan?.item as { amount: number; currency: string } | undefined;
  const amount = order
    ? formatMoney(Number(order.amount), String(order.currency))
    : item
      ? `${formatMoney(item.amount, item.currency)} every ${String(plan!.interval)} month(s)`
      : null;
  if (!amount) return html(404, page('Razorpay', '#3395ff', '<h1>Unknown order</h1>'));
  const name = escapeHtml(text(query.name) ?? 'Merchant');
  const description = escapeHtml(text(query.description) ?? '');
  const email = escapeHtml(text(query.email) ?? '');
  const target = JSON.stringify({
    key: text(query.key),
    order_id: orderId,
    subscription_id: subscriptionId,
    nonce: randomUUID(),
  });
  return html(
    200,
    page(
      `Razorpay Checkout · ${name}`,
      '#3395ff',
      `<p class="muted">${name}</p><h1>${description || 'Payment'}</h1><div class="amount">${escapeHtml(amount)}</div>
<form class="card" id="pay"><label for="card">Card number</label><input id="card" inputmode="numeric" autocomplete="cc-number" value="4111 1111 1111 1111">
<div class="row"><div><label for="exp">Expiry</label><input id="exp" value="12 / 30"></div><div><label for="cvv">CVV</label><input id="cvv" value="123"></div></div>
<label for="email">E-mail</label><input id="email" type="email" value="${email}">
<button type="submit" id="submit">Pay ${escapeHtml(amount)}</button>
<button type="button" class="secondary" id="failure">Failure (simulate a declined payment)</button>
<button type="button" class="secondary" id="close">Close</button><p class="error" id="error" role="alert"></p>
<p class="hint">Test card 4111 1111 1111 1111 succeeds. Success and Failure are Razorpay's test-mode choices.</p></form>`,
      `const target=${target};
const send=(type,data)=>parent.postMessage(Object.assign({type:'razorpay:'+type},data),'*');
const submit=async(outcome)=>{document.getElementById('error').textContent='';
const res=await fetch('/_emulator/checkout/pay',{method:'POST',headers:{'content-type':'application/json'},body:JSON.stringify(Object.assign({},target,{outcome,card:document.getElementById('card').value,email:document.getElementById('email').value}))});
const body=await res.json();
if(!res.ok){document.getElementById('error').textContent=body.error.description;return;}
if(body.response){send('success',{response:body.response});}else{document.getElementById('error').textContent=body.failure.description;send('failed',{error:body.failure});}};
document.getElementById('pay').onsubmit=(e)=>{e.preventDefault();submit('success');};
document.getElementById('failure').onclick=()=>submit('failure');
document.getElementById('close').onclick=()=>send('dismiss',{});`,
    ),
  );
}
