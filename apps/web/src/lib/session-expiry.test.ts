import { describe, expect, it } from 'vitest';
import { createExpiryGuard, isSessionExpired, sessionEndRedirect } from './session-expiry';

const failure = (overrides: Partial<Parameters<typeof isSessionExpired>[0]>) => ({
  url: '/api/songs/liked',
  status: 500,
  message: 'Internal server error',
  ...overrides,
});

describe('isSessionExpired', () => {
  it('treats any 401 as an expired session', () => {
    expect(isSessionExpired(failure({ status: 401, message: 'Invalid email or password' }))).toBe(true);
  });

  it('treats network failures as an expired session', () => {
    expect(isSessionExpired(failure({ status: 0, message: 'Failed to fetch', networkError: true }))).toBe(
      true,
    );
    expect(isSessionExpired(failure({ status: 0, message: 'connect ECONNREFUSED 127.0.0.1:3000' }))).toBe(
      true,
    );
    expect(isSessionExpired(failure({ status: 0, message: 'getaddrinfo ENOTFOUND api' }))).toBe(true);
  });

  it.each([
    'Authentication token missing. Please login.',
    'User not found',
    'Authentication failed',
    'jwt expired',
    'invalid token',
  ])('recognises the listed message %j', (message) => {
    expect(isSessionExpired(failure({ status: 403, message }))).toBe(true);
  });

  it.each(['Your Token has been revoked', 'authentication required', 'Unauthorized access'])(
    'recognises messages containing token/authentication/unauthorized: %j',
    (message) => {
      expect(isSessionExpired(failure({ status: 403, message }))).toBe(true);
    },
  );

  it('ignores ordinary failures', () => {
    expect(isSessionExpired(failure({ status: 404, message: 'Song not found' }))).toBe(false);
    expect(isSessionExpired(failure({ status: 403, message: 'Subscribe to Nova to play this song.' }))).toBe(
      false,
    );
    expect(isSessionExpired(failure({ status: 500, message: '' }))).toBe(false);
  });

  it('ignores a 400 that carries msg, even with an expiry-like message', () => {
    expect(
      isSessionExpired(failure({ status: 400, message: 'invalid token', body: { msg: 'invalid token' } })),
    ).toBe(false);
  });

  it('exempts PayPal calls', () => {
    expect(isSessionExpired(failure({ url: '/api/payments/paypal/capture-order', status: 401 }))).toBe(false);
    expect(
      isSessionExpired(failure({ url: '/api/payments/paypal/create-order', status: 0, networkError: true })),
    ).toBe(false);
  });
});

describe('sessionEndRedirect', () => {
  it.each([
    '/',
    '/login',
    '/register',
    '/forgot-password',
    '/reset-password/abc123',
    '/auth/callback',
    '/privacy-policy',
    '/help',
    '/data-deletion',
    '/login/',
  ])('keeps visitors on %s', (path) => {
    expect(sessionEndRedirect(path)).toBeNull();
  });

  it.each([
    '/home',
    '/artists',
    '/album/1',
    '/search',
    '/payment-history',
    '/admin',
    '/genres',
    '/payment-success',
  ])('sends visitors on %s to /login', (path) => {
    expect(sessionEndRedirect(path)).toBe('/login');
  });
});

describe('createExpiryGuard', () => {
  it('lets one expiry through per 2000 ms', () => {
    let now = 10_000;
    const guard = createExpiryGuard(() => now);
    expect(guard.tryEnter()).toBe(true);
    now += 1999;
    expect(guard.tryEnter()).toBe(false);
    now += 1;
    expect(guard.tryEnter()).toBe(true);
  });
});
