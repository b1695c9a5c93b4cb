// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { isTypingTarget, shortcutFor } from './use-player-shortcuts';

const press = (key: string, extra: Partial<KeyboardEvent> = {}, target: EventTarget | null = document.body) =>
  shortcutFor({ key, shiftKey: false, ctrlKey: false, metaKey: false, altKey: false, target, ...extra });

describe('player keyboard shortcuts', () => {
  it('maps the keys', () => {
    expect(press(' ')).toBe('togglePlay');
    expect(press('ArrowLeft')).toBe('seekBackward');
    expect(press('ArrowRight')).toBe('seekForward');
    expect(press('ArrowLeft', { shiftKey: true })).toBe('previous');
    expect(press('ArrowRight', { shiftKey: true })).toBe('next');
    expect(press('l')).toBe('like');
    expect(press('L', { shiftKey: true })).toBe('like');
    expect(press('m')).toBe('mute');
    expect(press('?', { shiftKey: true })).toBe('help');
    expect(press('x')).toBeNull();
  });

  it('leaves browser and system shortcuts alone', () => {
    expect(press('l', { ctrlKey: true })).toBeNull();
    expect(press(' ', { metaKey: true })).toBeNull();
    expect(press('ArrowLeft', { altKey: true })).toBeNull();
  });

  it('ignores typing in fields', () => {
    const input = document.createElement('input');
    const textarea = document.createElement('textarea');
    const editable = document.createElement('div');
    editable.contentEditable = 'true';
    Object.defineProperty(editable, 'isContentEditable', { value: true });
    for (const target of [input, textarea, editable]) {
      expect(isTypingTarget(target)).toBe(true);
      expect(press('m', {}, target)).toBeNull();
      expect(press(' ', {}, target)).toBeNull();
    }
    const checkbox = document.createElement('input');
    checkbox.type = 'checkbox';
    expect(isTypingTarget(checkbox)).toBe(false);
  });

  it('lets buttons keep Space and sliders keep the arrows', () => {
    const button = document.createElement('button');
    expect(press(' ', {}, button)).toBeNull();
    expect(press('m', {}, button)).toBe('mute');
    const slider = document.createElement('input');
    slider.type = 'range';
    expect(press('ArrowRight', {}, slider)).toBeNull();
    expect(press('m', {}, slider)).toBe('mute');
  });
});
