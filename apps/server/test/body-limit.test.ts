import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './test-app';

/**
 * A body over the limit is refused with 413 and its message, and the client actually receives it: a browser-like
 * client (fetch) that is still sending when the server decides must see the answer, not a connection reset.
 */
let ctx: TestContext;
let baseUrl: string;

beforeAll(async () => {
  ctx = await createTestApp();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
});
afterAll(() => ctx.close());

describe('bodies over the limit', () => {
  it('a 5 MB JSON login gets 413 with its message through fetch', async () => {
    const body = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(5 * 1024 * 1024) });
    const response = await fetch(`${baseUrl}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      message: expect.stringMatching(/too large/i),
      code: 'PAYLOAD_TOO_LARGE',
    });
  });

  it('a slowly streamed JSON body without a length, growing past the limit, gets 413 too', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        // A slow sender (a phone on a poor network): still sending when the server has decided.
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"email":"a@example.com","password":"'));
        if (sent > 4 * 1024 * 1024) {
          controller.enqueue(new TextEncoder().encode('"}'));
          controller.close();
          return;
        }
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${baseUrl}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('a slowly sent 5 MB body with its length announced gets 413 with its message', async () => {
    const total = 5 * 1024 * 1024;
    const chunk = new Uint8Array(64 * 1024).fill(120);
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        await new Promise((resolve) => setTimeout(resolve, 2));
        if (sent >= total) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${baseUrl}/api/users/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(total) },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('keeps reading a sender that is still uploading after the 413: no reset, and the connection serves on', async () => {
    // A raw client, as over a slow network: the headers and a first part, then the answer, then the rest.
    const { port } = ctx.app.server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let received = '';
    let failure: Error | null = null;
    socket.on('data', (data) => (received += data.toString()));
    socket.on('error', (error) => (failure = error));
    const total = 5 * 1024 * 1024;
    socket.write(
      `POST /api/users/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`,
    );
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let sent = 0;
    const send = async (until: number) => {
      while (sent < until && !failure) {
        if (!socket.write(chunk)) await new Promise((resolve) => socket.once('drain', resolve));
        sent += chunk.length;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    };
    await send(256 * 1024);
    await expect.poll(() => received, { timeout: 5000 }).toContain('PAYLOAD_TOO_LARGE');
    expect(received).toMatch(/^HTTP\/1\.1 413/);
    expect(received.toLowerCase()).not.toContain('connection: close');
    await send(total);
    expect(failure).toBeNull();
    received = '';
    socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await expect.poll(() => received, { timeout: 5000 }).toMatch(/^HTTP\/1\.1 200/);
    socket.destroy();
  });

  it('the connection stays usable for the next request', async () => {
    const health = await fetch(`${baseUrl}/api/health`);
    expect(health.status).toBe(200);
  });
});

describe('webhook bodies', () => {
  let gateways: TestContext;
  beforeAll(async () => {
    // Keys only: nothing is called at the gateways, the bodies are refused before any handler runs.
    const nowhere = 'http://127.0.0.1:9';
    gateways = await createTestApp({
      env: {
        STRIPE_SECRET_KEY: 'sk_test_body_limit',
        STRIPE_PUBLISHABLE_KEY: 'pk_test_body_limit',
        STRIPE_WEBHOOK_SECRET: 'whsec_body_limit',
        STRIPE_API_BASE: nowhere,
        RAZORPAY_KEY_ID: 'rzp_test_body_limit',
        RAZORPAY_KEY_SECRET: 'secret',
        RAZORPAY_WEBHOOK_SECRET: 'webhook-secret',
        RAZORPAY_API_BASE: nowhere,
        PAYPAL_CLIENT_ID: 'client',
        PAYPAL_CLIENT_SECRET: 'secret',
        PAYPAL_WEBHOOK_ID: 'WH-BODY-LIMIT',
        PAYPAL_API_BASE: nowhere,
      },
    });
  });
  afterAll(() => gateways.close());

  it.each(['stripe', 'razorpay', 'paypal'])(
    '%s: a body over 512 KiB is refused with 413 { message, code }, one under it reaches the signature check',
    async (gateway) => {
      const post = (bytes: number) =>
        gateways.app.inject({
          method: 'POST',
          url: `/api/payments/${gateway}/webhook`,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ padding: 'x'.repeat(bytes) }),
        });
      const tooLarge = await post(512 * 1024);
      expect(tooLarge.statusCode).toBe(413);
      expect(tooLarge.json()).toEqual({
        message: expect.stringMatching(/too large/i),
        code: 'PAYLOAD_TOO_LARGE',
      });
      // Under the limit the body is read and the (missing) signature is what refuses it.
      expect((await post(400 * 1024)).statusCode).toBe(400);
    },
  );
});
