// @vitest-environment jsdom
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { peekReturnPath, rememberReturnPath, safeReturnPath, takeReturnPath } from './return-to';

const ORIGIN = 'https://backbeat.example';

describe('safeReturnPath', () => {
  it.each([
    ['/album/42', '/album/42'],
    ['/search?q=jazz#songs', '/search?q=jazz#songs'],
    ['/artist/a%20b', '/artist/a%20b'],
    ['/admin/payments/x/../y', '/admin/payments/y'],
  ])('keeps the same-origin path %s', (candidate, expected) => {
    expect(safeReturnPath(candidate, ORIGIN)).toBe(expected);
  });

  it.each([
    ['another origin, protocol-relative', '//evil.example/album/1'],
    ['a backslash browsers read as a slash', '/\\evil.example'],
    ['an absolute address', 'https://evil.example/home'],
    ['this origin written absolutely', `${ORIGIN}/home`],
    ['a script', 'javascript:alert(1)'],
    ['a relative path', 'album/1'],
    ['a control character', '/album/1\n'],
    ['a tab inside the host part', '/\t/evil.example'],
    ['the landing page', '/'],
    ['the login page', '/login?next=/home'],
    ['a reset link', '/reset-password/abc'],
    ['the social-login callback', '/auth/callback?new=1'],
    ['the genre picker', '/genres'],
    ['nothing', ''],
    ['not a string', 42],
    ['a very long path', `/${'a'.repeat(3000)}`],
  ])('refuses %s', (_what, candidate) => {
    expect(safeReturnPath(candidate, ORIGIN)).toBeNull();
  });

  /** Paths built from the pieces that make addresses leave a site: slashes, backslashes, hosts, schemes. */
  const trickyPath = fc
    .array(
      fc.constantFrom(
        '/',
        '//',
        '\\',
        '.',
        '..',
        '@',
        ':',
        '%2F',
        '?',
        '#',
        '\t',
        'evil.example',
        'http:',
        'album',
      ),
      { maxLength: 8 },
    )
    .map((parts) => parts.join(''));

  it('invariant: whatever it accepts stays on this origin and is a path', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          trickyPath,
          fc.string().map((rest) => `/${rest}`),
        ),
        (candidate) => {
          const safe = safeReturnPath(candidate, ORIGIN);
          if (safe === null) return;
          expect(safe.startsWith('/')).toBe(true);
          expect(safe.startsWith('//')).toBe(false);
          expect(new URL(safe, ORIGIN).origin).toBe(ORIGIN);
        },
      ),
    );
  });
});

describe('the remembered path', () => {
  afterEach(() => window.sessionStorage.clear());

  it('is taken once', () => {
    rememberReturnPath('/album/7?from=mail');
    expect(peekReturnPath()).toBe('/album/7?from=mail');
    expect(takeReturnPath()).toBe('/album/7?from=mail');
    expect(takeReturnPath()).toBeNull();
  });

  it('ignores unsafe paths, and re-checks what storage holds', () => {
    rememberReturnPath('//evil.example');
    expect(peekReturnPath()).toBeNull();
    window.sessionStorage.setItem('backbeat.returnTo', 'https://evil.example');
    expect(takeReturnPath()).toBeNull();
  });
});
