import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from './test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('platform', () => {
  it('reports health with the database kind', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', database: ctx.database.kind });
  });

  it('answers an unknown API path with 404 JSON', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/does-not-exist' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Route GET /api/does-not-exist not found', code: 'NOT_FOUND' });
  });

  it('serves an OpenAPI 3.1 document generated from the contract schemas', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api/health'].get.responses['200']).toBeDefined();
  });

  it('serves Swagger UI', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('swagger');
  });

  it('sends security headers with a strict CSP', async () => {
    // An API answer is never a document: its policy allows nothing.
    const res = await ctx.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });

  it('answers malformed JSON with 400 and { message, code }', async () => {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/health',
      headers: { 'content-type': 'application/json' },
      payload: '{"broken":',
    });
    expect([400, 404]).toContain(res.statusCode);
    expect(res.json()).toHaveProperty('code');
    expect(res.json()).toHaveProperty('message');
  });
});

describe('API documentation in production', () => {
  const production = { NODE_ENV: 'production', SMTP_URL: 'smtp://127.0.0.1:2525' };

  it('keeps Swagger UI off unless API_DOCS=true, and serves the OpenAPI document either way', async () => {
    for (const [env, uiStatus] of [
      [production, 404],
      [{ ...production, API_DOCS: 'true' }, 200],
    ] as const) {
      const app = await createTestApp({ env });
      try {
        expect((await app.app.inject({ method: 'GET', url: '/api/docs/' })).statusCode).toBe(uiStatus);
        const doc = await app.app.inject({ method: 'GET', url: '/api/openapi.json' });
        expect(doc.statusCode).toBe(200);
        expect(doc.json().openapi).toBe('3.1.0');
      } finally {
        await app.close();
      }
    }
  });
});
