import type { Exchange, GatewayEmulator } from '../../src/index';
import { postJson, type RazorpayRest } from '../support';
import type { TypedSample } from './typecheck';

const DAY = 24 * 3600 * 1000;

/**
 * The `razorpay` package's entity types, with the few fields where its definitions contradict Razorpay's API
 * reference corrected (each named with the reference page that says so):
 * - Payments entity ("Payments API > Payment Entity"): `order_id`, `customer_id`, `fee`, `tax` are null when
 *   absent (a failed payment has no fee); `refund_status` is `null`, `partial` or `full` (the type says the string
 *   'null'); `email`, `contact` and `notes` are always present; `offers`, `token`, `emi` only when expanded.
 * - Orders entity ("Orders API > Order Entity"): `receipt` and `offer_id` are null when not given; an order has no
 *   `description` or `token` unless created for a token (Recurring Payments).
 * - Subscriptions entity ("Subscriptions API > Subscriptions Entity"): `customer_id`, `charge_at`, `start_at`,
 *   `end_at`, `expire_by`, `change_scheduled_at` and `offer_id` are null until set; `remaining_count` is a number
 *   (the entity's example shows `"remaining_count":5`; the type says string).
 * - Payments entity: `description` is null when none was given.
 * - Dispute entity ("Disputes API > Dispute Entity"): `evidence` fields are null until submitted; `action` belongs
 *   to the contest request, not to the entity.
 * - Errors ("Errors > Error Response Parameters"): `{ error: { code, description, source, step, reason, metadata, field? } }`.
 */
export const RAZORPAY_HEADER = `import type { Payments } from 'razorpay/dist/types/payments';
import type { Orders } from 'razorpay/dist/types/orders';
import type { Refunds } from 'razorpay/dist/types/refunds';
import type { Disputes } from 'razorpay/dist/types/disputes';
import type { Plans } from 'razorpay/dist/types/plans';
import type { Subscriptions } from 'razorpay/dist/types/subscriptions';
import type { Invoices } from 'razorpay/dist/types/invoices';
type Nullable<T, K extends keyof T> = Omit<T, K> & { [P in K]: T[P] | null };
type Payment = Omit<Nullable<Payments.RazorpayPayment, 'order_id' | 'customer_id' | 'fee' | 'tax' | 'bank' | 'wallet' | 'vpa'>, 'refund_status' | 'offers' | 'token' | 'emi' | 'description'> & {
  refund_status: 'partial' | 'full' | null;
  description: string | null;
  offers?: Payments.RazorpayPayment['offers'];
};
type Order = Omit<Nullable<Orders.RazorpayOrder, 'receipt' | 'offer_id'>, 'description' | 'token'> & { description?: string };
type Refund = Nullable<Refunds.RazorpayRefund, 'receipt'>;
type Evidence = Omit<Disputes.RazorpayDispute['evidence'], 'action' | 'others'>;
type Dispute = Omit<Disputes.RazorpayDispute, 'evidence'> & {
  reason_description: string;
  comments: string | null;
  evidence: { [K in keyof Evidence]: Evidence[K] | null } & { others: Disputes.RazorpayDispute['evidence']['others'] | null; submitted_at: number | null };
};
type Plan = Plans.RazorPayPlans;
/** Invoices API > Invoice entity: a subscription's invoice names its subscription (the SDK's type lacks the field). */
type Invoice = Omit<Invoices.RazorpayInvoice, 'invoice_number' | 'customer_details' | 'comment' | 'customer_id'> & {
  invoice_number: string | null;
  customer_details: Invoices.RazorpayCustomerDetails | null;
  comment: string | null;
  customer_id: string | null;
  subscription_id: string | null;
};
type Subscription = Omit<Nullable<Subscriptions.RazorpaySubscription, 'customer_id' | 'charge_at' | 'start_at' | 'end_at' | 'expire_by' | 'change_scheduled_at' | 'offer_id'>, 'remaining_count'> & { remaining_count: number };
type Collection<T> = { entity: 'collection'; count: number; items: T[] };
type RazorpayErrorBody = { error: { code: string; description: string; source: string; step: string; reason: string; metadata: Record<string, string>; field?: string } };
type Entities = { payment?: { entity: Payment }; order?: { entity: Order }; refund?: { entity: Refund }; dispute?: { entity: Dispute }; subscription?: { entity: Subscription } };
/** Webhooks ("Webhooks > Payloads"): the event envelope around the entities it names. */
type RazorpayWebhook = { entity: 'event'; account_id: string; event: string; contains: Array<keyof Entities>; payload: Entities; created_at: number };`;

/** The type of every JSON body a Razorpay route answers. */
export function razorpayType(exchange: Exchange): string | null {
  if (exchange.path.startsWith('/_') || exchange.body === undefined) return null;
  if (exchange.status >= 400) return 'RazorpayErrorBody';
  const parts = exchange.path.split('/').slice(2);
  const entity: Record<string, string> = {
    orders: 'Order',
    payments: 'Payment',
    refunds: 'Refund',
    disputes: 'Dispute',
    plans: 'Plan',
    subscriptions: 'Subscription',
    invoices: 'Invoice',
  };
  const last = parts.length % 2 === 1 ? parts.at(-1)! : parts.at(-2)!;
  const isList = exchange.method === 'GET' && parts.length % 2 === 1;
  const name =
    parts.at(-1) === 'capture'
      ? 'Payment'
      : parts.at(-1) === 'cancel'
        ? 'Subscription'
        : parts.at(-1) === 'refund'
          ? 'Refund'
          : entity[last];
  if (!name) return 'never';
  return isList ? `Collection<${name}>` : name;
}

export const razorpaySamples = (exchanges: Exchange[], webhooks: string[]): TypedSample[] => [
  ...exchanges
    .filter((x) => x.gateway === 'razorpay')
    .flatMap((x) => {
      const type = razorpayType(x);
      return type ? [{ label: `${x.method} ${x.path} → ${x.status}`, type, value: x.body }] : [];
    }),
  ...webhooks.map((body) => ({
    label: `webhook ${(JSON.parse(body) as { event: string }).event}`,
    type: 'RazorpayWebhook',
    value: JSON.parse(body),
  })),
];

/** Every Razorpay route through orders (failed, captured, never captured), refunds, disputes and a subscription. */
export async function razorpayTour(
  emulator: GatewayEmulator,
  razorpay: RazorpayRest,
  keyId: string,
): Promise<void> {
  const base = emulator.razorpay.url;
  const checkout = async (target: Record<string, string>, outcome = 'success') =>
    (
      await postJson(`${base}/_emulator/checkout/pay`, {
        key: keyId,
        card: '4111111111111111',
        outcome,
        ...target,
      })
    ).body;
  const swallow = (promise: Promise<unknown>) => promise.catch(() => undefined);

  const order = await razorpay.orders.create({
    amount: 12900,
    currency: 'INR',
    receipt: 'o-1',
    notes: { order_id: 'o1' },
  });
  await checkout({ order_id: order.id }, 'failure');
  const paid = await checkout({ order_id: order.id });
  const paymentId = paid.response.razorpay_payment_id as string;
  await razorpay.payments.fetch(paymentId);
  await swallow(razorpay.payments.capture(paymentId, 100, 'INR'));
  await razorpay.payments.capture(paymentId, 12900, 'INR');
  await swallow(razorpay.payments.capture(paymentId, 12900, 'INR'));
  await razorpay.orders.fetch(order.id);
  await razorpay.orders.fetchPayments(order.id);
  await razorpay.payments.refund(paymentId, { amount: 2900, notes: { reason: 'partial' } });
  const refund = await razorpay.payments.refund(paymentId, {});
  await swallow(razorpay.payments.refund(paymentId, { amount: 100 }));
  await razorpay.refunds.fetch(refund.id, { payment_id: paymentId });
  await razorpay.refunds.fetch(refund.id);
  await razorpay.payments.fetchMultipleRefund(paymentId, { count: 10 });
  await razorpay.refunds.all({ from: 0, count: 5 });

  const disputed = await razorpay.orders.create({ amount: 5000, currency: 'INR' });
  const disputedId = (await checkout({ order_id: disputed.id })).response.razorpay_payment_id as string;
  await razorpay.payments.capture(disputedId, 5000, 'INR');
  const dispute = await postJson(`${base}/_emulator/payments/${disputedId}/dispute`, {});
  await razorpay.disputes.fetch(dispute.body.id as string);
  await postJson(`${base}/_emulator/disputes/${dispute.body.id as string}/close`, { outcome: 'lost' });
  const again = await razorpay.orders.create({ amount: 6000, currency: 'INR' });
  const againId = (await checkout({ order_id: again.id })).response.razorpay_payment_id as string;
  await razorpay.payments.capture(againId, 6000, 'INR');
  const won = await postJson(`${base}/_emulator/payments/${againId}/dispute`, {});
  await postJson(`${base}/_emulator/disputes/${won.body.id as string}/close`, { outcome: 'won' });
  await razorpay.disputes.all({ count: 10 });

  // Never captured: refunded automatically after five days.
  const forgotten = await razorpay.orders.create({ amount: 7000, currency: 'INR' });
  const forgottenId = (await checkout({ order_id: forgotten.id })).response.razorpay_payment_id as string;
  await emulator.clock.advance(6 * DAY);
  await razorpay.payments.fetch(forgottenId);
  await razorpay.payments.all({
    from: 0,
    to: Math.floor(emulator.clock.now().getTime() / 1000),
    count: 100,
    skip: 0,
  });
  await razorpay.orders.all({ count: 2 });

  // A subscription: paid at checkout, charged on the clock, a failure, cancelled.
  const plan = await razorpay.plans.create({
    period: 'monthly',
    interval: 1,
    item: { name: 'Nova Reyes', amount: 14900, currency: 'INR' },
  });
  await razorpay.plans.fetch(plan.id);
  const subscription = await razorpay.subscriptions.create({
    plan_id: plan.id,
    total_count: 12,
    customer_notify: 1,
    notes: { order_id: 'o-sub' },
  });
  const firstCharge = await checkout({ subscription_id: subscription.id });
  const charged = await razorpay.payments.fetch(firstCharge.response.razorpay_payment_id as string);
  await razorpay.invoices.fetch(charged.invoice_id as string);
  await razorpay.invoices.all({ count: 10 });
  await emulator.clock.advance(32 * DAY);
  await razorpay.subscriptions.cancel(subscription.id, true);
  await postJson(`${base}/_emulator/subscriptions/${subscription.id}/charge`, { outcome: 'failed' });
  await razorpay.subscriptions.fetch(subscription.id);
  await razorpay.subscriptions.cancel(subscription.id, false);
  await swallow(razorpay.subscriptions.cancel(subscription.id, false));

  // Errors.
  await swallow(razorpay.orders.create({ amount: 10, currency: 'INR' }));
  await swallow(
    razorpay.orders.create({ currency: 'INR' } as unknown as { amount: number; currency: string }),
  );
  await swallow(razorpay.payments.fetch('pay_missing'));
  await fetch(`${base}/v1/nowhere`, {
    headers: { authorization: `Basic ${Buffer.from(`${keyId}:x`).toString('base64')}` },
  });
}
