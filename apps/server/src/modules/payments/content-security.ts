import type { PaymentsConfig } from '../../config';

/** Origins the web app must allow for one gateway's browser script, frames, calls, images and styles. */
export interface PaymentContentSources {
  script: string[];
  frame: string[];
  connect: string[];
  img: string[];
  style: string[];
}

type Directives = Partial<PaymentContentSources>;

/**
 * Each provider's published CSP requirements for its browser integration, for each of its environments (test keys
 * and live keys load the same scripts; PayPal's sandbox is chosen by the client id, with the SDK always served by
 * www.paypal.com, which `*.paypal.com` covers together with www.sandbox.paypal.com):
 * - Stripe, "Security at Stripe" guide, Content Security Policy: Stripe.js and Elements, 3-D Secure (hooks), the
 *   Address Element's Google Maps autocomplete, Stripe's images.
 * - PayPal, JavaScript SDK "Best Practices", CSP: *.paypal.com, *.paypalobjects.com and *.venmo.com for scripts,
 *   frames, connections, images and styles. Its inline-script allowance ('unsafe-inline' or a nonce) is not taken:
 *   the web app loads the SDK as a script file and never relies on inline script, and 'unsafe-inline' would open
 *   every page to injected scripts.
 * - Razorpay, Checkout "Content Security Policy": checkout.razorpay.com, api.razorpay.com, lumberjack (its
 *   telemetry) and its CDN images.
 */
export const PROVIDER_CSP: Record<'stripe' | 'razorpay' | 'paypal', Directives> = {
  stripe: {
    script: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://maps.googleapis.com'],
    frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
    connect: ['https://api.stripe.com', 'https://maps.googleapis.com'],
    img: ['https://*.stripe.com'],
  },
  paypal: {
    script: ['https://*.paypal.com', 'https://*.paypalobjects.com', 'https://*.venmo.com'],
    frame: ['https://*.paypal.com', 'https://*.paypalobjects.com', 'https://*.venmo.com'],
    connect: ['https://*.paypal.com', 'https://*.paypalobjects.com', 'https://*.venmo.com'],
    img: ['https://*.paypal.com', 'https://*.paypalobjects.com', 'https://*.venmo.com'],
    style: ['https://*.paypal.com', 'https://*.paypalobjects.com', 'https://*.venmo.com'],
  },
  razorpay: {
    script: ['https://checkout.razorpay.com'],
    frame: ['https://api.razorpay.com', 'https://checkout.razorpay.com'],
    connect: ['https://api.razorpay.com', 'https://checkout.razorpay.com', 'https://lumberjack.razorpay.com'],
    img: ['https://cdn.razorpay.com'],
  },
};

const origin = (url: string) => new URL(url).origin;

/**
 * The Content-Security-Policy sources the configured gateways need in the browser: each provider's published list,
 * or, when a gateway runs against the local emulator, the emulator's origin (its stand-ins of the scripts).
 */
export function paymentContentSources(payments: PaymentsConfig): PaymentContentSources {
  const sources: PaymentContentSources = { script: [], frame: [], connect: [], img: [], style: [] };
  const add = (part: Directives) => {
    for (const key of Object.keys(part) as Array<keyof PaymentContentSources>) {
      for (const value of part[key] ?? []) if (!sources[key].includes(value)) sources[key].push(value);
    }
  };
  for (const name of ['stripe', 'razorpay', 'paypal'] as const) {
    const gateway = payments[name];
    if (!gateway) continue;
    if (gateway.apiBase) {
      const at = origin(gateway.apiBase);
      add({ script: [at], frame: [at], connect: [at], img: [at] });
    } else {
      add(PROVIDER_CSP[name]);
    }
  }
  return sources;
}
