import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config';
import { PROVIDER_CSP, paymentContentSources } from '../src/modules/payments/content-security';
import { createTestApp } from './test-app';

/** Whether a CSP source list lets the browser load `url` (CSP Level 3 host-source matching, https only here). */
function allows(sources: string[], url: string): boolean {
  const target = new URL(url);
  return sources.some((source) => {
    if (source === "'self'" || source.startsWith("'")) return false;
    const match = /^https:\/\/(\*\.)?([^/]+)$/.exec(source);
    if (!match || target.protocol !== 'https:') return false;
    const [, wildcard, host] = match;
    return wildcard ? target.hostname.endsWith(`.${host}`) : target.hostname === host;
  });
}

function directive(csp: string, name: string): string[] {
  const found = csp
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .find(([key]) => key === name);
  return found ? found.slice(1) : [];
}

/** What each provider's browser integration loads, per environment (the web app's script addresses). */
const LOADS = {
  stripe: {
    script: 'https://js.stripe.com/v3/',
    frame: 'https://js.stripe.com/v3/elements-inner.html',
    connect: 'https://api.stripe.com/v1/payment_intents',
    threeDs: 'https://hooks.stripe.com/redirect/authenticate/src_1',
  },
  razorpay: {
    script: 'https://checkout.razorpay.com/v1/checkout.js',
    frame: 'https://api.razorpay.com/v1/checkout/public',
    connect: 'https://lumberjack.razorpay.com/v1/track',
  },
  paypal: {
    // The PayPal JS SDK is served by www.paypal.com in both environments; the sandbox's pages by www.sandbox.paypal.com.
    script: 'https://www.paypal.com/sdk/js?client-id=sb',
    sandboxFrame: 'https://www.sandbox.paypal.com/smart/buttons',
    liveFrame: 'https://www.paypal.com/smart/buttons',
    objects: 'https://www.paypalobjects.com/api/checkout.js',
  },
};

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function configWith(env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'backbeat-csp-'));
  dirs.push(dataDir);
  return loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
    SMTP_URL: 'smtp://mail.example.com:587',
    PUBLIC_URL: 'https://music.example.com',
    SEED_DEMO: 'false',
    ...env,
  });
}

const KEYS = {
  test: {
    STRIPE_SECRET_KEY: 'sk_test_abc',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_abc',
    STRIPE_WEBHOOK_SECRET: 'whsec_abc',
    RAZORPAY_KEY_ID: 'rzp_test_abc',
    RAZORPAY_KEY_SECRET: 'secret',
    RAZORPAY_WEBHOOK_SECRET: 'hook',
    PAYPAL_CLIENT_ID: 'client',
    PAYPAL_CLIENT_SECRET: 'secret',
    PAYPAL_WEBHOOK_ID: 'WH-1',
    PAYPAL_ENVIRONMENT: 'sandbox',
  },
  live: {
    STRIPE_SECRET_KEY: 'sk_live_abc',
    STRIPE_PUBLISHABLE_KEY: 'pk_live_abc',
    STRIPE_WEBHOOK_SECRET: 'whsec_abc',
    RAZORPAY_KEY_ID: 'rzp_live_abc',
    RAZORPAY_KEY_SECRET: 'secret',
    RAZORPAY_WEBHOOK_SECRET: 'hook',
    PAYPAL_CLIENT_ID: 'client',
    PAYPAL_CLIENT_SECRET: 'secret',
    PAYPAL_WEBHOOK_ID: 'WH-1',
    PAYPAL_ENVIRONMENT: 'live',
  },
};

describe("the CSP follows each provider's published list, in each environment", () => {
  it.each(['test', 'live'] as const)('%s keys: every source the providers publish is allowed', (mode) => {
    const sources = paymentContentSources(configWith(KEYS[mode]).payments);
    for (const provider of ['stripe', 'razorpay', 'paypal'] as const) {
      for (const [kind, list] of Object.entries(PROVIDER_CSP[provider])) {
        for (const source of list) expect(sources[kind as keyof typeof sources]).toContain(source);
      }
    }
    expect(allows(sources.script, LOADS.stripe.script)).toBe(true);
    expect(allows(sources.frame, LOADS.stripe.frame)).toBe(true);
    expect(allows(sources.frame, LOADS.stripe.threeDs)).toBe(true);
    expect(allows(sources.connect, LOADS.stripe.connect)).toBe(true);
    expect(allows(sources.script, LOADS.razorpay.script)).toBe(true);
    expect(allows(sources.frame, LOADS.razorpay.frame)).toBe(true);
    expect(allows(sources.connect, LOADS.razorpay.connect)).toBe(true);
    // The defect: the SDK comes from www.paypal.com even in the sandbox, whose pages are on www.sandbox.paypal.com.
    expect(allows(sources.script, LOADS.paypal.script)).toBe(true);
    expect(allows(sources.script, LOADS.paypal.objects)).toBe(true);
    expect(allows(sources.frame, LOADS.paypal.sandboxFrame)).toBe(true);
    expect(allows(sources.frame, LOADS.paypal.liveFrame)).toBe(true);
    expect(allows(sources.connect, LOADS.paypal.liveFrame)).toBe(true);
  });

  it('never allows inline scripts, whatever the gateways', () => {
    const sources = paymentContentSources(configWith(KEYS.live).payments);
    expect(sources.script).not.toContain("'unsafe-inline'");
  });

  it('the header a test-keys server sends carries them, and only the emulator origin in test mode', async () => {
    const ctx = await createTestApp({
      env: { ...KEYS.test, NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:3000' },
    });
    try {
      // The page's policy (API answers carry their own `default-src 'none'`: they load nothing).
      const csp = String(
        (await ctx.app.inject({ method: 'GET', url: '/home' })).headers['content-security-policy'],
      );
      expect(allows(directive(csp, 'script-src'), LOADS.paypal.script)).toBe(true);
      expect(allows(directive(csp, 'frame-src'), LOADS.paypal.sandboxFrame)).toBe(true);
      expect(allows(directive(csp, 'style-src'), 'https://www.paypalobjects.com/web/res/style.css')).toBe(
        true,
      );
      expect(allows(directive(csp, 'script-src'), LOADS.stripe.script)).toBe(true);
      expect(directive(csp, 'script-src')).not.toContain("'unsafe-inline'");
    } finally {
      await ctx.close();
    }
  });

  it('against the emulator, only its origin is added', () => {
    const sources = paymentContentSources(
      configWith({
        NODE_ENV: 'development',
        PUBLIC_URL: 'http://localhost:3000',
        ...KEYS.test,
        STRIPE_API_BASE: 'http://127.0.0.1:4100',
        RAZORPAY_API_BASE: 'http://127.0.0.1:4101',
        PAYPAL_API_BASE: 'http://127.0.0.1:4102',
      }).payments,
    );
    expect(sources.script).toEqual([
      'http://127.0.0.1:4100',
      'http://127.0.0.1:4101',
      'http://127.0.0.1:4102',
    ]);
    expect(sources.style).toEqual([]);
  });
});
