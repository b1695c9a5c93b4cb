import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helmetHeaders } from '../src/platform/security-headers';
import { createTestApp, type TestContext } from './test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('security headers', () => {
  it('are computed once from the helmet options', () => {
    const headers = new Map(
      helmetHeaders({ contentSecurityPolicy: { directives: { defaultSrc: ["'self'"] } }, hsts: false }),
    );
    expect(headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(headers.has('strict-transport-security')).toBe(false);
  });

  it('go on API answers, errors and not-found answers alike', async () => {
    for (const url of ['/api/genres', '/api/songs?page=0', '/api/nowhere']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  it('are left off media routes (helmet: false), which keep nosniff', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/stream/hls/00000000-0000-4000-8000-000000000000/segment_000.ts',
    });
    expect(res.headers['content-security-policy']).toBeUndefined();
    expect(res.headers['x-frame-options']).toBeUndefined();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
