import { describe, expect, it } from 'vitest';
import { Clock } from '../src/core/clock';
import { route, Router, type EmulatorRequest } from '../src/core/router';
import { PaypalDialect } from '../src/paypal/dialect';
import { RazorpayDialect } from '../src/razorpay/dialect';
import { StripeDialect } from '../src/stripe/dialect';

const request = (path: string): EmulatorRequest => ({
  method: 'GET',
  path,
  params: {},
  query: {},
  body: {},
  rawBody: '',
  headers: { authorization: 'Bearer sk_test_x', 'idempotency-key': 'k' },
  id: 'r1',
});
const dialects = {
  stripe: new StripeDialect(
    { secretKey: 'sk_test_x', publishableKey: 'pk_test_x', webhookSecret: 'whsec_x' },
    new Clock(),
  ),
  razorpay: new RazorpayDialect({ keyId: 'rzp_test_x', keySecret: 's', webhookSecret: 'w' }),
  paypal: new PaypalDialect(new Clock()),
};

/** A route that fails inside (a bug in a handler): each provider answers its own 500, never a shared shape. */
function failing(dialect: (typeof dialects)[keyof typeof dialects]) {
  const router = new Router(dialect).add(
    route('GET /v1/boom', 'none', {
      handler: () => {
        throw new Error('handler bug');
      },
    }),
  );
  const failures: unknown[] = [];
  router.onError = (error) => failures.push(error);
  return { router, failures };
}

describe('internal failures in each provider’s own envelope', () => {
  it('Stripe: api_error 500 with a request id and its log URL', async () => {
    const { router, failures } = failing(dialects.stripe);
    const answer = await router.answer(request('/v1/boom'));
    expect(answer.status).toBe(500);
    expect(answer).toMatchObject({
      json: {
        error: {
          type: 'api_error',
          request_log_url: expect.stringMatching(/^https:\/\/dashboard\.stripe\.com\/test\/logs\/req_/),
        },
      },
      headers: { 'request-id': expect.stringMatching(/^req_/) },
    });
    expect(failures).toHaveLength(1);
  });

  it('Razorpay: SERVER_ERROR with source, step and reason NA', async () => {
    const answer = await failing(dialects.razorpay).router.answer(request('/v1/boom'));
    expect(answer).toMatchObject({
      status: 500,
      json: { error: { code: 'SERVER_ERROR', source: 'NA', step: 'NA', reason: 'NA', metadata: {} } },
    });
  });

  it('PayPal: INTERNAL_SERVER_ERROR with a debug id (also in Paypal-Debug-Id)', async () => {
    const answer = await failing(dialects.paypal).router.answer(request('/v1/boom'));
    expect(answer).toMatchObject({
      status: 500,
      json: { name: 'INTERNAL_SERVER_ERROR', debug_id: expect.any(String), links: expect.any(Array) },
    });
    expect(answer.headers?.['paypal-debug-id']).toBe(
      (answer as { json: { debug_id: string } }).json.debug_id,
    );
  });
});

describe('an outage a test injects', () => {
  it('answers the matching requests with the provider’s own 500, as many times as asked, then recovers', async () => {
    const router = new Router(dialects.stripe).add(
      route('GET /v1/ok', 'none', { handler: () => ({ status: 200, json: { ok: true } }) }),
    );
    router.fail((method, path) => method === 'GET' && path === '/v1/ok', 2);
    expect((await router.answer(request('/v1/ok'))).status).toBe(500);
    expect(await router.answer(request('/v1/ok'))).toMatchObject({
      status: 500,
      json: { error: { type: 'api_error' } },
    });
    expect((await router.answer(request('/v1/ok'))).status).toBe(200);
    const end = router.fail(() => true, 10);
    end();
    expect((await router.answer(request('/v1/ok'))).status).toBe(200);
  });
});
