import { describe, expect, it } from 'vitest';
import {
  initialPaymentState,
  paymentFailed,
  paymentReducer,
  paymentStarted,
  paypalCaptured,
  paypalCaptureFailed,
  paypalOrderReady,
  razorpayOrderReady,
  stripeIntentReady,
  subscriptionCancelled,
} from './payment.slice';

describe('payment state (SPEC sections 3 and 4)', () => {
  it('starting sets loading and the gateway, clearing old errors', () => {
    const failed = paymentReducer(initialPaymentState, paymentFailed({ message: 'Declined' }));
    const started = paymentReducer(failed, paymentStarted({ gateway: 'stripe', cycle: '6m' }));
    expect(started).toMatchObject({ status: 'loading', gateway: 'stripe', error: null, currentCycle: '6m' });
  });

  it('keeps what each gateway answered: client secret, razorpay order, paypal order and links', () => {
    let state = paymentReducer(
      initialPaymentState,
      stripeIntentReady({ clientSecret: 'pi_1_secret', transactionId: 'o1' }),
    );
    expect(state).toMatchObject({ clientSecret: 'pi_1_secret', transactionId: 'o1' });
    state = paymentReducer(
      state,
      razorpayOrderReady({ order: { id: 'order_R1', amount: 129 }, transactionId: 'o2' }),
    );
    expect(state).toMatchObject({
      razorpayOrderId: 'order_R1',
      razorpayOrder: { id: 'order_R1', amount: 129 },
    });
    const links = [{ href: 'http://pay/approve', rel: 'approve', method: 'GET' }];
    state = paymentReducer(state, paypalOrderReady({ id: 'PP1', links, transactionId: 'o3' }));
    expect(state).toMatchObject({ paypalOrderId: 'PP1', paypalLinks: links, transactionId: 'o3' });
  });

  it('a successful PayPal capture sets the success flag; a failed one clears it', () => {
    const captured = paymentReducer(initialPaymentState, paypalCaptured({ id: 'PP1', status: 'COMPLETED' }));
    expect(captured).toMatchObject({ success: true, paypalCapture: { id: 'PP1', status: 'COMPLETED' } });
    const failed = paymentReducer(captured, paypalCaptureFailed({ message: 'Instrument declined' }));
    expect(failed).toMatchObject({
      success: false,
      status: 'failed',
      error: { message: 'Instrument declined' },
    });
  });

  it("cancelling stores the server's message, or 'Subscription cancelled'", () => {
    expect(
      paymentReducer(initialPaymentState, subscriptionCancelled('Cancelled; plays until 1 May'))
        .cancelMessage,
    ).toBe('Cancelled; plays until 1 May');
    expect(paymentReducer(initialPaymentState, subscriptionCancelled(undefined)).cancelMessage).toBe(
      'Subscription cancelled',
    );
  });

  it('any failure sets failed and keeps the whole error body', () => {
    const body = {
      message: 'Your card was declined.',
      code: 'PAYMENT_DECLINED',
      declineCode: 'generic_decline',
    };
    expect(paymentReducer(initialPaymentState, paymentFailed(body))).toMatchObject({
      status: 'failed',
      error: body,
    });
  });
});
