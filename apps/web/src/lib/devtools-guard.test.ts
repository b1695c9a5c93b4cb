import { describe, expect, it } from 'vitest';
import { isDevToolsShortcut } from './devtools-guard';

const key = (
  value: string,
  modifiers: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {},
) => ({
  key: value,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...modifiers,
});

describe('isDevToolsShortcut', () => {
  it('blocks F12, Ctrl+Shift+I/J/C and Ctrl+U', () => {
    expect(isDevToolsShortcut(key('F12'))).toBe(true);
    for (const letter of ['I', 'J', 'C']) {
      expect(isDevToolsShortcut(key(letter, { ctrlKey: true, shiftKey: true }))).toBe(true);
    }
    expect(isDevToolsShortcut(key('u', { ctrlKey: true }))).toBe(true);
  });

  it('leaves ordinary shortcuts alone', () => {
    expect(isDevToolsShortcut(key('c', { ctrlKey: true }))).toBe(false);
    expect(isDevToolsShortcut(key('i'))).toBe(false);
    expect(isDevToolsShortcut(key('t', { altKey: true }))).toBe(false);
  });
});
