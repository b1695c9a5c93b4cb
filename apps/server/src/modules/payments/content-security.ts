import type { PaymentsConfig } from '../../config';

/** Origins the web app must reach for one gateway's browser script, frames and calls. */
export interface PaymentContentSources {
  script: string[];
  frame: string[];
  connect: string[];
  img: string[];
}

const origin = (url: string) => new URL(url).origin;

/**
 * The Content-Security-Policy sources the configured gateways need in the browser: Stripe.js and its frames,
 * Razorpay Checkout, the PayPal JS SDK; or, when a gateway runs against the local emulator, the emulator's origin.
 */
export function paymentContentSources(payments: PaymentsConfig): PaymentContentSources {
  const sources: PaymentContentSources = { script: [], frame: [], connect: [], img: [] };
  const add = (part: Partial<PaymentContentSources>) => {
    for (const key of Object.keys(part) as Array<keyof PaymentContentSources>) {
      for (const value of part[key] ?? []) if (!sources[key].includes(value)) sources[key].push(value);
    }
  };
  const emulated = (apiBase: string) => {
    const at = origin(apiBase);
    add({ script: [at], frame: [at], connect: [at], img: [at] });
  };
  if (payments.stripe) {
    if (payments.stripe.apiBase) emulated(payments.stripe.apiBase);
    else
      add({
        script: ['https://js.stripe.com'],
        frame: ['https://js.stripe.com', 'https://hooks.stripe.com'],
        connect: ['https://api.stripe.com'],
        img: ['https://*.stripe.com'],
      });
  }
  if (payments.razorpay) {
    if (payments.razorpay.apiBase) emulated(payments.razorpay.apiBase);
    else
      add({
        script: ['https://checkout.razorpay.com'],
        frame: ['https://api.razorpay.com', 'https://checkout.razorpay.com'],
        connect: ['https://api.razorpay.com', 'https://lumberjack.razorpay.com'],
        img: ['https://cdn.razorpay.com'],
      });
  }
  if (payments.paypal) {
    if (payments.paypal.apiBase) emulated(payments.paypal.apiBase);
    else {
      const host =
        payments.paypal.environment === 'live' ? 'https://www.paypal.com' : 'https://www.sandbox.paypal.com';
      add({
        script: [host, 'https://www.paypalobjects.com'],
        frame: [host],
        connect: [host],
        img: ['https://www.paypalobjects.com', host],
      });
    }
  }
  return sources;
}
