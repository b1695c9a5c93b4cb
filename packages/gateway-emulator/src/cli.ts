#!/usr/bin/env -S node --import tsx
/**
 * Runs the gateway emulator on its own: `npm start -w @backbeat/gateway-emulator`. Prints the credentials and the
 * three addresses; point a Backbeat server at it with STRIPE_API_BASE / RAZORPAY_API_BASE / PAYPAL_API_BASE and the
 * printed keys, and its webhooks at the server with EMULATOR_WEBHOOK_BASE (default http://127.0.0.1:3000).
 */
import { generateEmulatorCredentials, startGatewayEmulator } from './index';

const webhookBase = (process.env.EMULATOR_WEBHOOK_BASE ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const credentials = generateEmulatorCredentials();
const emulator = await startGatewayEmulator({
  credentials,
  webhookUrls: {
    stripe: `${webhookBase}/api/payments/stripe/webhook`,
    razorpay: `${webhookBase}/api/payments/razorpay/webhook`,
    paypal: `${webhookBase}/api/payments/paypal/webhook`,
  },
  stateFile: process.env.EMULATOR_STATE_FILE,
  log: (entry, message) => console.log(message, JSON.stringify(entry)),
});
console.log(
  [
    `STRIPE_API_BASE=${emulator.stripe.url}`,
    `STRIPE_SECRET_KEY=${credentials.stripe.secretKey}`,
    `STRIPE_PUBLISHABLE_KEY=${credentials.stripe.publishableKey}`,
    `STRIPE_WEBHOOK_SECRET=${credentials.stripe.webhookSecret}`,
    `RAZORPAY_API_BASE=${emulator.razorpay.url}`,
    `RAZORPAY_KEY_ID=${credentials.razorpay.keyId}`,
    `RAZORPAY_KEY_SECRET=${credentials.razorpay.keySecret}`,
    `RAZORPAY_WEBHOOK_SECRET=${credentials.razorpay.webhookSecret}`,
    `PAYPAL_API_BASE=${emulator.paypal.url}`,
    `PAYPAL_CLIENT_ID=${credentials.paypal.clientId}`,
    `PAYPAL_CLIENT_SECRET=${credentials.paypal.clientSecret}`,
    `PAYPAL_WEBHOOK_ID=${credentials.paypal.webhookId}`,
  ].join('\n'),
);
const stop = () => void emulator.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
