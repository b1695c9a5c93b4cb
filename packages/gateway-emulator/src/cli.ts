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
/** `secretKey` as the server's variable names it: `STRIPE_SECRET_KEY`. */
const variable = (gateway: string, name: string) =>
  `${gateway}_${name.replace(/[A-Z]/g, (c) => `_${c}`)}`.toUpperCase();
for (const gateway of ['stripe', 'razorpay', 'paypal'] as const) {
  console.log(`${gateway.toUpperCase()}_API_BASE=${emulator[gateway].url}`);
  for (const [name, value] of Object.entries(credentials[gateway]))
    console.log(`${variable(gateway, name)}=${value}`);
}
const stop = () => void emulator.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
