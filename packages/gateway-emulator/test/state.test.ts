import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import { afterAll, describe, expect, it } from 'vitest';
import { generateEmulatorCredentials, startGatewayEmulator } from '../src/index';

const dir = mkdtempSync(path.join(tmpdir(), 'emulator-state-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const client = (url: string, key: string) => {
  const base = new URL(url);
  return new Stripe(key, { host: base.hostname, port: Number(base.port), protocol: 'http' });
};

describe('state file', () => {
  it('keeps customers, prices and the clock across a restart', async () => {
    const credentials = generateEmulatorCredentials();
    const stateFile = path.join(dir, 'state.json');
    const first = await startGatewayEmulator({ credentials, stateFile });
    const customer = await client(first.stripe.url, credentials.stripe.secretKey).customers.create({
      email: 'a@b.c',
    });
    await first.clock.advance(3_600_000);
    await first.close();

    const second = await startGatewayEmulator({ credentials, stateFile });
    const again = await client(second.stripe.url, credentials.stripe.secretKey).customers.retrieve(
      customer.id,
    );
    expect(again).toMatchObject({ id: customer.id, email: 'a@b.c' });
    expect(second.clock.offset).toBe(3_600_000);
    await second.close();
  });
});
