import {
  CheckoutPaymentIntent,
  Client,
  Environment,
  IntervalUnit,
  OrdersController,
  PaymentsController,
  SubscriptionsController,
  TenureType,
  TransactionSearchController,
} from '@paypal/paypal-server-sdk';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { paypalRest } from './contracts/paypal-tour';
import { agentFor, postJson, startForTest, type LooseJson } from './support';

let env: Awaited<ReturnType<typeof startForTest>>;
let client: Client;
let orders: OrdersController;
let payments: PaymentsController;
let rest: ReturnType<typeof paypalRest>;
const DAY = 24 * 3600 * 1000;

const control = (path: string, body: unknown = {}) =>
  postJson(`${env.emulator.paypal.url}/_emulator${path}`, body);
const webhooks = async (type: string) => {
  await vi.waitFor(() => expect(env.emulator.pendingWebhooks('paypal')).toBe(0));
  return env.hooks.received
    .map((r) => JSON.parse(r.body) as { event_type: string; resource: LooseJson })
    .filter((e) => e.event_type === type);
};
async function captured(value: string, customId: string) {
  const { result: order } = await orders.createOrder({
    body: {
      intent: CheckoutPaymentIntent.Capture,
      purchaseUnits: [{ customId, amount: { currencyCode: 'USD', value } }],
    },
  });
  await control(`/orders/${order.id!}/approve`);
  const { result } = await orders.captureOrder({ id: order.id! });
  return { orderId: order.id!, captureId: result.purchaseUnits![0]!.payments!.captures![0]!.id! };
}

beforeAll(async () => {
  env = await startForTest();
  client = new Client({
    clientCredentialsAuthCredentials: {
      oAuthClientId: env.credentials.paypal.clientId,
      oAuthClientSecret: env.credentials.paypal.clientSecret,
    },
    environment: Environment.Sandbox,
    httpClientOptions: { httpsAgent: agentFor(env.emulator.paypal.url) },
  });
  orders = new OrdersController(client);
  payments = new PaymentsController(client);
  rest = paypalRest(env.emulator, client);
});
afterAll(async () => {
  await env.emulator.close();
  await env.hooks.close();
});

describe('PayPal orders, refunds and disputes as PayPal refuses and reports them', () => {
  it('payer ids in PayPal’s format; a second capture is ORDER_ALREADY_CAPTURED; PayPal-Request-Id replays', async () => {
    const { result: order } = await orders.createOrder({
      paypalRequestId: 'create-x',
      body: {
        intent: CheckoutPaymentIntent.Capture,
        purchaseUnits: [{ amount: { currencyCode: 'USD', value: '5.00' } }],
      },
    });
    const replay = await orders.createOrder({
      paypalRequestId: 'create-x',
      body: {
        intent: CheckoutPaymentIntent.Capture,
        purchaseUnits: [{ amount: { currencyCode: 'USD', value: '5.00' } }],
      },
    });
    expect(replay.result.id).toBe(order.id);
    const other = await rest(
      'POST',
      '/v2/checkout/orders',
      { intent: 'CAPTURE', purchase_units: [{ amount: { currency_code: 'USD', value: '6.00' } }] },
      { 'paypal-request-id': 'create-x' },
    );
    expect(other.body.details[0].issue).toBe('DUPLICATE_REQUEST_ID');
    const approved = await control(`/orders/${order.id!}/approve`, { buyer: 'pays' });
    expect(approved.body.payerID).toMatch(/^[A-Z0-9]{13}$/);
    await orders.captureOrder({ id: order.id! });
    const second = await rest('POST', `/v2/checkout/orders/${order.id!}/capture`, {});
    expect(second).toMatchObject({
      status: 422,
      body: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_ALREADY_CAPTURED' }] },
    });
  });

  it('partial refunds of a capture up to its amount; then REFUND_AMOUNT_EXCEEDED and CAPTURE_FULLY_REFUNDED', async () => {
    const { captureId } = await captured('10.00', 'order-r');
    await payments.refundCapturedPayment({
      captureId,
      body: { amount: { currencyCode: 'USD', value: '3.00' } },
    });
    expect((await payments.getCapturedPayment({ captureId })).result.status).toBe('PARTIALLY_REFUNDED');
    const over = await rest('POST', `/v2/payments/captures/${captureId}/refund`, {
      amount: { currency_code: 'USD', value: '7.01' },
    });
    expect(over.body.details[0].issue).toBe('REFUND_AMOUNT_EXCEEDED');
    await payments.refundCapturedPayment({ captureId, body: {} });
    expect((await payments.getCapturedPayment({ captureId })).result.status).toBe('REFUNDED');
    const again = await rest('POST', `/v2/payments/captures/${captureId}/refund`, {});
    expect(again.body.details[0].issue).toBe('CAPTURE_FULLY_REFUNDED');
    const refunded = (await webhooks('PAYMENT.CAPTURE.REFUNDED')).filter((e) =>
      (e.resource.links as Array<{ href: string }>).some((l) => l.href.endsWith(captureId)),
    );
    expect(refunded.map((e) => e.resource.amount.value)).toEqual(['3.00', '7.00']);
  });

  it('a dispute blocks refunds; resolved for the buyer, the capture is reversed (PAYMENT.CAPTURE.REVERSED)', async () => {
    const { captureId } = await captured('9.00', 'order-d');
    const dispute = (await control(`/transactions/${captureId}/dispute`)).body;
    expect(dispute.dispute_id).toMatch(/^PP-D-\d+$/);
    const refund = await rest('POST', `/v2/payments/captures/${captureId}/refund`, {});
    expect(refund.body.details[0].issue).toBe('REFUND_NOT_PERMITTED_DUE_TO_CHARGEBACK');
    await control(`/disputes/${dispute.dispute_id as string}/resolve`, { outcome: 'buyer' });
    const shown = await rest('GET', `/v1/customer/disputes/${dispute.dispute_id as string}`);
    expect(shown.body).toMatchObject({
      status: 'RESOLVED',
      dispute_outcome: { outcome_code: 'RESOLVED_BUYER_FAVOUR' },
    });
    expect(
      (await webhooks('CUSTOMER.DISPUTE.RESOLVED')).some((e) => e.resource.dispute_id === dispute.dispute_id),
    ).toBe(true);
    const reversed = (await webhooks('PAYMENT.CAPTURE.REVERSED')).find((e) =>
      (e.resource.links as Array<{ href: string }>).some((l) => l.href.endsWith(captureId)),
    );
    expect(reversed?.resource.amount).toEqual({ currency_code: 'USD', value: '9.00' });
  });

  it('an order never approved expires after three hours', async () => {
    const { result: order } = await orders.createOrder({
      body: {
        intent: CheckoutPaymentIntent.Capture,
        purchaseUnits: [{ amount: { currencyCode: 'USD', value: '2.00' } }],
      },
    });
    await env.emulator.clock.advance(2 * 3600 * 1000);
    expect((await orders.getOrder({ id: order.id! })).result.status).toBe('CREATED');
    await env.emulator.clock.advance(3600 * 1000 + 60_000);
    expect((await rest('GET', `/v2/checkout/orders/${order.id!}`)).status).toBe(404);
    expect((await rest('POST', `/v2/checkout/orders/${order.id!}/capture`, {})).body.details[0].issue).toBe(
      'ORDER_EXPIRED',
    );
  });
});

describe('PayPal subscriptions and reporting for reconciliation', () => {
  it('each sale id is in PAYMENT.SALE.COMPLETED, the subscription’s transactions and Transaction Search', async () => {
    const subscriptions = new SubscriptionsController(client);
    const product = await rest('POST', '/v1/catalogs/products', { name: 'Artist', type: 'DIGITAL' });
    const { result: plan } = await subscriptions.createBillingPlan({
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
    const { result: subscription } = await subscriptions.createSubscription({
      body: { planId: plan.id!, customId: 'order-sub' },
    });
    const start = new Date(env.emulator.clock.now().getTime() - 1000);
    await control(`/approve/subscription/${subscription.id!}`);
    await env.emulator.clock.advance(31 * DAY);
    // Deliveries may arrive in any order (as PayPal's do): in the order the sales were made.
    const sales = (await webhooks('PAYMENT.SALE.COMPLETED'))
      .filter((e) => e.resource.billing_agreement_id === subscription.id)
      .sort((a, b) => String(a.resource.create_time).localeCompare(String(b.resource.create_time)));
    expect(sales).toHaveLength(2);
    const end = new Date(env.emulator.clock.now().getTime() + 1000);
    const { result: listed } = await subscriptions.listSubscriptionTransactions({
      id: subscription.id!,
      startTime: start.toISOString(),
      endTime: end.toISOString(),
    });
    expect(listed.transactions!.map((t) => t.id)).toEqual(sales.map((e) => e.resource.id));
    expect(listed.transactions![0]).toMatchObject({
      status: 'COMPLETED',
      amountWithBreakdown: { grossAmount: { value: '4.99' } },
    });

    // A partial sale refund, then too much: PayPal's v1 error.
    const saleId = sales[0]!.resource.id as string;
    const refund = await rest('POST', `/v1/payments/sale/${saleId}/refund`, {
      amount: { total: '1.99', currency: 'USD' },
    });
    expect(refund.body).toMatchObject({ state: 'completed', sale_id: saleId, amount: { total: '1.99' } });
    const over = await rest('POST', `/v1/payments/sale/${saleId}/refund`, {
      amount: { total: '3.01', currency: 'USD' },
    });
    expect(over.body).toMatchObject({ name: 'REFUND_EXCEEDED_TRANSACTION_AMOUNT' });
    expect((await rest('GET', `/v1/payments/sale/${saleId}`)).body.state).toBe('partially_refunded');

    const search = new TransactionSearchController(client);
    const { result } = await search.searchTransactions({
      startDate: new Date(end.getTime() - 31 * DAY + 2000).toISOString(),
      endDate: end.toISOString(),
      fields: 'all',
      pageSize: 50,
      page: 1,
    });
    const lines = result.transactionDetails!.map((d) => d.transactionInfo!);
    expect(lines.find((l) => l.transactionId === sales[1]!.resource.id)).toMatchObject({
      transactionEventCode: 'T0002',
      paypalReferenceId: subscription.id,
      transactionStatus: 'S',
      customField: 'order-sub',
    });
    expect(lines.find((l) => l.paypalReferenceId === saleId)).toMatchObject({
      transactionEventCode: 'T1107',
      transactionAmount: { value: '-1.99' },
    });
    const tooLong = await rest(
      'GET',
      `/v1/reporting/transactions?start_date=${start.toISOString()}&end_date=${new Date(start.getTime() + 32 * DAY).toISOString()}`,
    );
    expect(tooLong).toMatchObject({ status: 400, body: { name: 'INVALID_REQUEST' } });
  });

  it('answers unknown routes, bad tokens and bad OAuth credentials in PayPal’s envelopes', async () => {
    const unknown = await rest('GET', '/v1/nothing');
    expect(unknown).toMatchObject({
      status: 404,
      body: {
        name: 'RESOURCE_NOT_FOUND',
        debug_id: expect.any(String),
        details: [{ issue: 'INVALID_RESOURCE_ID' }],
      },
    });
    const token = await fetch(`${env.emulator.paypal.url}/v2/checkout/orders/X`, {
      headers: { authorization: 'Bearer nope' },
    });
    expect(await token.json()).toEqual({
      error: 'invalid_token',
      error_description: 'Token signature verification failed',
    });
    const invalid = await rest('POST', '/v2/checkout/orders', {
      intent: 'CAPTURE',
      purchase_units: [{ amount: { currency_code: 'USD' } }],
    });
    expect(invalid.body.details[0]).toMatchObject({
      issue: 'MISSING_REQUIRED_PARAMETER',
      field: '/purchase_units/0/amount/value',
      location: 'body',
    });
  });
});
