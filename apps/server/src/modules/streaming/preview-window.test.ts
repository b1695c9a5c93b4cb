import { describe, expect, it } from 'vitest';
import { PreviewStartField, previewWindow } from '@backbeat/contract';

describe('previewWindow', () => {
  it('is 30 s from the artist’s pick, 30 s in by default', () => {
    expect(previewWindow(240, null)).toEqual({ startSec: 30, durationSec: 30 });
    expect(previewWindow(240, 95.5)).toEqual({ startSec: 95.5, durationSec: 30 });
    expect(previewWindow(240, 0)).toEqual({ startSec: 0, durationSec: 30 });
  });

  it('starts early enough to end with the song (songs under 60 s, late picks)', () => {
    expect(previewWindow(45, null)).toEqual({ startSec: 15, durationSec: 30 });
    expect(previewWindow(240, 230)).toEqual({ startSec: 210, durationSec: 30 });
    expect(previewWindow(30, null)).toEqual({ startSec: 0, durationSec: 30 });
  });

  it('previews the first half of a song shorter than 30 s, never the whole song', () => {
    expect(previewWindow(12, null)).toEqual({ startSec: 0, durationSec: 6 });
    expect(previewWindow(29.9, 10)).toEqual({ startSec: 0, durationSec: 14.95 });
    expect(previewWindow(0, null)).toEqual({ startSec: 0, durationSec: 0 });
  });
});

describe('PreviewStartField', () => {
  it('reads seconds or minutes:seconds, empty as the default', () => {
    expect(PreviewStartField.parse('45')).toBe(45);
    expect(PreviewStartField.parse('1:05')).toBe(65);
    expect(PreviewStartField.parse('1:05.5')).toBe(65.5);
    expect(PreviewStartField.parse(12.25)).toBe(12.25);
    expect(PreviewStartField.parse('  ')).toBeNull();
  });

  it('refuses anything else', () => {
    for (const value of ['-1', 'abc', '1:75', '1:2:3', '1e3', '99999999']) {
      expect(PreviewStartField.safeParse(value).success).toBe(false);
    }
  });
});
