import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceCookies, DEVICE_COOKIE_TTL_MS } from '../src/modules/auth/device-cookie';
import { uniqueEmail } from './auth-helpers';
import { createTestApp, type TestContext } from './test-app';

/**
 * Strangers cannot lock an account out (OWASP's device cookies): the app sits behind a trusted proxy, so every
 * attempt comes from the address its X-Forwarded-For names, and the attackers use as many addresses as they like.
 */
let ctx: TestContext;
const PROXY = '127.0.0.1';
beforeAll(async () => {
  ctx = await createTestApp({ env: { TRUST_PROXY: PROXY } });
});
afterAll(() => ctx.close());

let nextAddress = 0;
/** A fresh documentation-range address no other attempt in this file used. */
const freshAddress = () => {
  nextAddress += 1;
  return `203.0.${113 + (nextAddress >> 8)}.${nextAddress & 255}`;
};

const login = (email: string, password: string, from: string, device?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/users/login',
    payload: { email, password },
    remoteAddress: PROXY,
    headers: { 'x-forwarded-for': from },
    ...(device ? { cookies: { device } } : {}),
  });

const deviceCookieOf = (res: LightMyRequestResponse) => res.cookies.find((c) => c.name === 'device');

/** A new account, registered from its owner's browser: the device cookie that browser keeps, and the address. */
async function owner() {
  const email = uniqueEmail('owner');
  const password = 'the owner knows this';
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/users/register',
    payload: { name: 'Owner', email, password },
    remoteAddress: PROXY,
    headers: { 'x-forwarded-for': freshAddress() },
  });
  expect(res.statusCode).toBe(201);
  const cookie = deviceCookieOf(res);
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/users' });
  return { id: res.json().user._id as string, email, password, device: cookie!.value };
}

/** `total` wrong passwords spread round-robin over `addresses` fresh addresses. */
async function strangersGuess(email: string, total: number, addresses: number) {
  const from = Array.from({ length: addresses }, freshAddress);
  const statuses: number[] = [];
  for (let i = 0; i < total; i++) {
    statuses.push((await login(email, 'a wrong guess', from[i % addresses]!)).statusCode);
  }
  return statuses;
}

describe('no lock-out by strangers', () => {
  it('50 wrong passwords from 6 addresses: the owner signs in from a clean address; strangers stay slowed', async () => {
    const account = await owner();
    const guesses = await strangersGuess(account.email, 50, 6);
    expect(guesses).toEqual(Array(50).fill(401));

    // Anyone without the owner's device cookie meets the account's ceiling for untrusted clients.
    const stranger = await login(account.email, account.password, freshAddress());
    expect(stranger.statusCode).toBe(429);
    expect(stranger.json().code).toBe('RATE_LIMITED');

    // The owner's browser, from an address none of the guesses came from.
    const signedIn = await login(account.email, account.password, freshAddress(), account.device);
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().user._id).toBe(account.id);
    // A fresh device cookie each time (a new nonce: failures under the old one do not follow it).
    const rotated = deviceCookieOf(signedIn)!.value;
    expect(rotated).not.toBe(account.device);
    expect((await login(account.email, account.password, freshAddress(), rotated)).statusCode).toBe(200);
  });

  it('with many addresses (8 x 11 guesses) each address is stopped after 10, and the owner still gets in', async () => {
    const account = await owner();
    const addresses = Array.from({ length: 8 }, freshAddress);
    for (const from of addresses) {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await login(account.email, 'guess', from)).statusCode);
      // The account's ceiling (50) is met after five addresses; before that each address gets its 10.
      expect(statuses[10]).toBe(429);
    }
    const signedIn = await login(account.email, account.password, freshAddress(), account.device);
    expect(signedIn.statusCode).toBe(200);
  });

  it('trusts only a genuine, current device cookie of this very account', async () => {
    const account = await owner();
    const other = await owner();
    await strangersGuess(account.email, 50, 6);
    const devices = new DeviceCookies(ctx.config.secretKey);
    const now = Date.now();
    const untrusted = [
      other.device, // another account's browser
      `${account.device.slice(0, -2)}AA`, // altered
      devices.issue(account.id, now - DEVICE_COOKIE_TTL_MS - 60_000), // expired
      new DeviceCookies('another-secret-key-that-is-long-enough-000').issue(account.id, now), // not ours
    ];
    for (const device of untrusted) {
      expect((await login(account.email, account.password, freshAddress(), device)).statusCode).toBe(429);
    }
    expect((await login(account.email, account.password, freshAddress(), account.device)).statusCode).toBe(
      200,
    );
  });

  it('limits guesses through one device cookie to 10, without touching the account for others', async () => {
    const account = await owner();
    for (let i = 0; i < 10; i++) {
      expect((await login(account.email, 'typo', freshAddress(), account.device)).statusCode).toBe(401);
    }
    expect((await login(account.email, account.password, freshAddress(), account.device)).statusCode).toBe(
      429,
    );
    // A stolen cookie does not lock the owner's other browsers, nor the account for untrusted clients.
    expect((await login(account.email, account.password, freshAddress())).statusCode).toBe(200);
  });
});

describe('per-address limits group IPv6 by /64', () => {
  it('counts every address of one /64 as one address', async () => {
    const account = await owner();
    for (let i = 1; i <= 10; i++) {
      expect((await login(account.email, 'guess', `2001:db8:77:1::${i.toString(16)}`)).statusCode).toBe(401);
    }
    // Another address of the same /64 is the same client.
    expect((await login(account.email, 'guess', '2001:db8:77:1:ffff::1')).statusCode).toBe(429);
    // The neighbouring /64 is another client.
    expect((await login(account.email, 'guess', '2001:db8:77:2::1')).statusCode).toBe(401);
  });

  it('applies to registration too: 20 an hour per /64', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 21; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/users/register',
        payload: { name: 'Six', email: uniqueEmail('v6'), password: 'a long password' },
        remoteAddress: PROXY,
        headers: { 'x-forwarded-for': `2001:db8:99:1:${i.toString(16)}::1` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(201));
    expect(statuses[20]).toBe(429);
  });
});
