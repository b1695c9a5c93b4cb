import {
  CheckoutPaymentIntent,
  IntervalUnit,
  OrdersController,
  PaymentsController,
  SubscriptionsController,
  TenureType,
  TransactionSearchController,
  type Client,
} from '@paypal/paypal-server-sdk';
import type { GatewayEmulator } from '../../src/index';
import { postJson, type LooseJson } from '../support';

const DAY = 24 * 3600 * 1000;

/** A REST call as Backbeat makes it where the SDK has none: the SDK's token, PayPal's documented path. */
export function paypalRest(emulator: GatewayEmulator, client: Client) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const token = await client.clientCredentialsAuthManager.fetchToken();
    const response = await fetch(`${emulator.paypal.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token.accessToken}`,
        'content-type': 'application/json',
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json().catch(() => null)) as LooseJson };
  };
}

/**
 * Every PayPal route: orders (approved and captured, declined, never approved and expired), capture refunds
 * (partial, rest, one too many), a subscription with sales, a failed billing, sale refunds, disputes resolved
 * either way, Transaction Search, subscription transactions, webhook events and the errors on the way.
 */
export async function paypalTour(emulator: GatewayEmulator, client: Client): Promise<void> {
  const base = emulator.paypal.url;
  const rest = paypalRest(emulator, client);
  const orders = new OrdersController(client);
  const payments = new PaymentsController(client);
  const subscriptions = new SubscriptionsController(client);
  const search = new TransactionSearchController(client);
  const swallow = (promise: Promise<unknown>) => promise.catch(() => undefined);
  const control = (path: string, body: unknown = {}) => postJson(`${base}/_emulator${path}`, body);
  const newOrder = async (value: string, customId = 'order-1') =>
    (
      await orders.createOrder({
        paypalRequestId: `create-${customId}`,
        body: {
          intent: CheckoutPaymentIntent.Capture,
          purchaseUnits: [{ referenceId: 'ref', customId, amount: { currencyCode: 'USD', value } }],
        },
      })
    ).result;
  const start = new Date(emulator.clock.now().getTime() - DAY).toISOString();

  const order = await newOrder('12.00');
  await orders.getOrder({ id: order.id! });
  await swallow(orders.captureOrder({ id: order.id! }));
  await control(`/orders/${order.id!}/approve`, { buyer: 'pays' });
  const captured = await orders.captureOrder({ id: order.id!, paypalRequestId: `capture-${order.id!}` });
  await orders.captureOrder({ id: order.id!, paypalRequestId: `capture-${order.id!}` });
  await swallow(orders.captureOrder({ id: order.id! }));
  const capture = captured.result.purchaseUnits![0]!.payments!.captures![0]!;
  await payments.getCapturedPayment({ captureId: capture.id! });
  const partial = await payments.refundCapturedPayment({
    captureId: capture.id!,
    paypalRequestId: 'refund-1',
    body: { amount: { currencyCode: 'USD', value: '2.00' }, noteToPayer: 'partial' },
  });
  await payments.getRefund({ refundId: partial.result.id! });
  await swallow(
    payments.refundCapturedPayment({
      captureId: capture.id!,
      body: { amount: { currencyCode: 'USD', value: '50.00' } },
    }),
  );
  await payments.refundCapturedPayment({ captureId: capture.id!, body: {} });
  await swallow(payments.refundCapturedPayment({ captureId: capture.id!, body: {} }));
  await orders.getOrder({ id: order.id! });

  const declined = await newOrder('4.99', 'order-2');
  await control(`/orders/${declined.id!}/approve`, { buyer: 'declined' });
  await swallow(orders.captureOrder({ id: declined.id! }));

  // Disputes on captures: one for the buyer (reversed), one for the seller.
  for (const favour of ['buyer', 'seller'] as const) {
    const disputed = await newOrder('9.00', `order-${favour}`);
    await control(`/orders/${disputed.id!}/approve`);
    const id = (await orders.captureOrder({ id: disputed.id! })).result.purchaseUnits![0]!.payments!
      .captures![0]!.id!;
    const dispute = await control(`/transactions/${id}/dispute`);
    await swallow(payments.refundCapturedPayment({ captureId: id, body: {} }));
    await rest('GET', `/v1/customer/disputes/${dispute.body.dispute_id as string}`);
    await control(`/disputes/${dispute.body.dispute_id as string}/resolve`, { outcome: favour });
    await rest('GET', `/v1/customer/disputes/${dispute.body.dispute_id as string}`);
  }
  await rest('GET', '/v1/customer/disputes?page_size=1');

  // A subscription: product, plan, approval with its first sale, a renewal, a failed billing, refunds of sales.
  const product = await rest('POST', '/v1/catalogs/products', {
    name: 'Nova Reyes',
    type: 'DIGITAL',
    category: 'DIGITAL_MEDIA_BOOKS_MOVIES_MUSIC',
  });
  await rest('GET', `/v1/catalogs/products/${product.body.id as string}`);
  const { result: plan } = await subscriptions.createBillingPlan({
    paypalRequestId: 'plan-1',
    body: {
      productId: product.body.id as string,
      name: 'Monthly',
      billingCycles: [
        {
          frequency: { intervalUnit: IntervalUnit.Month, intervalCount: 1 },
          tenureType: TenureType.Regular,
          sequence: 1,
          totalCycles: 0,
          pricingScheme: { fixedPrice: { currencyCode: 'USD', value: '4.99' } },
        },
      ],
      paymentPreferences: { autoBillOutstanding: true, paymentFailureThreshold: 3 },
    },
  });
  await subscriptions.getBillingPlan(plan.id!);
  const { result: subscription } = await subscriptions.createSubscription({
    paypalRequestId: 'subscription-1',
    body: {
      planId: plan.id!,
      customId: 'order-sub',
      applicationContext: { returnUrl: 'http://x/ok', cancelUrl: 'http://x/no' },
    },
  });
  await control(`/approve/subscription/${subscription.id!}`, { buyer: 'pays' });
  await subscriptions.getSubscription({ id: subscription.id! });
  await emulator.clock.advance(32 * DAY);
  await control(`/subscriptions/${subscription.id!}/bill`, { outcome: 'failed' });
  const end = new Date(emulator.clock.now().getTime() + DAY).toISOString();
  const listed = await subscriptions.listSubscriptionTransactions({
    id: subscription.id!,
    startTime: start,
    endTime: end,
  });
  const [firstSale, secondSale] = listed.result
    .transactions!.filter((t) => t.status === 'COMPLETED')
    .map((t) => t.id!);
  await rest('GET', `/v1/payments/sale/${firstSale!}`);
  const saleRefund = await rest('POST', `/v1/payments/sale/${firstSale!}/refund`, {
    amount: { total: '1.00', currency: 'USD' },
  });
  await rest('GET', `/v1/payments/refund/${saleRefund.body.id as string}`);
  await rest('POST', `/v1/payments/sale/${firstSale!}/refund`, {
    amount: { total: '50.00', currency: 'USD' },
  });
  await rest('POST', `/v1/payments/sale/${firstSale!}/refund`, {});
  await rest('POST', `/v1/payments/sale/${firstSale!}/refund`, {});
  const saleDispute = await control(`/transactions/${secondSale!}/dispute`);
  await control(`/disputes/${saleDispute.body.dispute_id as string}/resolve`, { outcome: 'buyer' });
  await subscriptions.listSubscriptionTransactions({ id: subscription.id!, startTime: start, endTime: end });
  await subscriptions.cancelSubscription({ id: subscription.id!, body: { reason: 'tour' } });
  await swallow(subscriptions.cancelSubscription({ id: subscription.id!, body: { reason: 'again' } }));

  // Never approved: gone after three hours.
  const abandoned = await newOrder('3.00', 'order-abandoned');
  await emulator.clock.advance(4 * 3600 * 1000);
  await swallow(orders.getOrder({ id: abandoned.id! }));
  await swallow(orders.captureOrder({ id: abandoned.id! }));

  const searchEnd = emulator.clock.now().getTime() + DAY;
  await search.searchTransactions({
    startDate: new Date(searchEnd - 31 * DAY).toISOString(),
    endDate: new Date(searchEnd).toISOString(),
    fields: 'all',
    pageSize: 100,
    page: 1,
  });
  await rest(
    'GET',
    `/v1/reporting/transactions?start_date=${start}&end_date=${new Date(Date.parse(start) + 40 * DAY).toISOString()}`,
  );
  const events = await rest('GET', '/v1/notifications/webhooks-events?page_size=5');
  await rest(
    'GET',
    `/v1/notifications/webhooks-events/${(events.body.events as Array<{ id: string }>)[0]!.id}`,
  );

  const sent = emulator.signedEvent(emulator.events('paypal').at(-1)!.eventId)!;
  await rest('POST', '/v1/notifications/verify-webhook-signature', {
    auth_algo: sent.headers['paypal-auth-algo'],
    cert_url: sent.headers['paypal-cert-url'],
    transmission_id: sent.headers['paypal-transmission-id'],
    transmission_sig: sent.headers['paypal-transmission-sig'],
    transmission_time: sent.headers['paypal-transmission-time'],
    webhook_id: 'WH-OTHER',
    webhook_event: JSON.parse(sent.body) as unknown,
  });

  // Errors.
  await rest('POST', '/v2/checkout/orders', {
    intent: 'CAPTURE',
    purchase_units: [{ amount: { currency_code: 'USD', value: 'ten' } }],
  });
  await rest('POST', '/v2/checkout/orders', { intent: 'CAPTURE' });
  await rest(
    'POST',
    '/v2/checkout/orders',
    { intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: 'USD', value: '1.00' } }] },
    { 'paypal-request-id': `create-order-1` },
  );
  await rest('GET', '/v2/checkout/orders/UNKNOWN');
  await rest('GET', '/v1/nowhere');
  await fetch(`${base}/v2/checkout/orders/X`, { headers: { authorization: 'Bearer wrong' } });
  await fetch(`${base}/v1/oauth2/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` },
    body: 'grant_type=client_credentials',
  });
}
