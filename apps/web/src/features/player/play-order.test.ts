import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeSong } from './player.test-fixtures';
import { playableSongs, shuffled } from './play-order';

describe('shuffled', () => {
  it('invariant: a permutation of the list (same items, same length), the input untouched', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer()),
        fc.infiniteStream(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true })),
        (list, stream) => {
          const before = [...list];
          const randoms = stream[Symbol.iterator]();
          const out = shuffled(list, () => randoms.next().value as number);
          expect(list).toEqual(before);
          expect([...out].sort((a, b) => a - b)).toEqual([...list].sort((a, b) => a - b));
        },
      ),
    );
  });

  it('can put any song first', () => {
    expect(shuffled(['a', 'b', 'c'], () => 0.999)[0]).toBe('a');
    expect(shuffled(['a', 'b', 'c'], () => 0)[0]).toBe('b');
  });
});

describe('playableSongs', () => {
  it('keeps ready songs the viewer may play, in order', () => {
    const songs = [
      makeSong('a'),
      makeSong('b', { canPlay: false }),
      makeSong('c', { status: 'processing' }),
      makeSong('d'),
    ];
    expect(playableSongs(songs).map((song) => song._id)).toEqual(['a', 'd']);
  });
});
