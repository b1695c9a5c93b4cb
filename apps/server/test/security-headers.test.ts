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

  it('on API answers are the part that applies to an answer that is never a document', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/genres' });
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    for (const documentOnly of [
      'cross-origin-opener-policy',
      'origin-agent-cluster',
      'x-dns-prefetch-control',
      'x-download-options',
      'x-permitted-cross-domain-policies',
      'x-xss-protection',
    ]) {
      expect(res.headers[documentOnly], documentOnly).toBeUndefined();
    }
  });

  it('on pages (the API docs here) are the full document set', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
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
