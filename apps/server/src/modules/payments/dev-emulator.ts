import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EmulatorCredentials, GatewayEmulator } from '@backbeat/gateway-emulator';
import type { Config } from '../../config';

/** Points every gateway's config at the running emulator, with the credentials it accepts. */
export function configWithEmulator(
  config: Config,
  credentials: EmulatorCredentials,
  emulator: { stripe: { url: string }; razorpay: { url: string }; paypal: { url: string } },
): Config {
  return {
    ...config,
    payments: {
      ...config.payments,
      stripe: { ...credentials.stripe, apiBase: emulator.stripe.url },
      razorpay: { ...credentials.razorpay, apiBase: emulator.razorpay.url },
      paypal: { ...credentials.paypal, environment: 'sandbox', apiBase: emulator.paypal.url },
    },
  };
}

/**
 * Development without gateway keys: starts the local gateway emulator in this process (Stripe, Razorpay and
 * PayPal, each on its own loopback port), with credentials generated once into DATA_DIR and its state kept there,
 * so a newcomer can try every checkout. Production never gets here (config refuses the emulator there).
 */
export async function startDevEmulator(
  config: Config,
  log: { info(entry: object, message: string): void; warn(entry: object, message: string): void },
): Promise<{ config: Config; close(): Promise<void> }> {
  // A development dependency: production installs never load it (config refuses the emulator there).
  const module = await import('@backbeat/gateway-emulator');
  const dir = path.join(config.dataDir, 'gateway-emulator');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const credentialsFile = path.join(dir, 'credentials.json');
  let credentials: EmulatorCredentials;
  if (existsSync(credentialsFile)) {
    credentials = JSON.parse(readFileSync(credentialsFile, 'utf8')) as EmulatorCredentials;
  } else {
    credentials = module.generateEmulatorCredentials();
    writeFileSync(credentialsFile, JSON.stringify(credentials, null, 2), { mode: 0o600 });
  }
  // Webhooks go straight to this process on loopback, whatever PUBLIC_URL says.
  const self = `http://127.0.0.1:${config.port}/api/payments`;
  const emulator: GatewayEmulator = await module.startGatewayEmulator({
    host: '127.0.0.1',
    credentials,
    webhookUrls: {
      stripe: `${self}/stripe/webhook`,
      razorpay: `${self}/razorpay/webhook`,
      paypal: `${self}/paypal/webhook`,
    },
    stateFile: path.join(dir, 'state.json'),
    log: (entry, message) => log.info({ emulator: entry }, message),
  });
  log.warn(
    { stripe: emulator.stripe.url, razorpay: emulator.razorpay.url, paypal: emulator.paypal.url },
    'payments run in TEST MODE against the local gateway emulator: no real money moves',
  );
  return { config: configWithEmulator(config, credentials, emulator), close: () => emulator.close() };
}
