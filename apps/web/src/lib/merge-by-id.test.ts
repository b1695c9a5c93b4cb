import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mergeById, mergePages } from './merge-by-id';

const item = (id: string, title = id) => ({ _id: id, title });

describe('mergeById', () => {
  it('appends new items in order and keeps each id once, in its first place with its newest content', () => {
    const merged = mergeById([item('a'), item('b')], [item('b', 'b, renamed'), item('c')]);
    expect(merged).toEqual([item('a'), item('b', 'b, renamed'), item('c')]);
  });

  it('shows an album once when the list shifted between two pages (it ends page 1 and starts page 2)', () => {
    const page1 = [item('a1'), item('a2'), item('a3')];
    // A newer album was added before page 2 was asked for: a3 moved to page 2.
    const page2 = [item('a3'), item('a4'), item('a5')];
    expect(mergePages([page1, page2]).map((album) => album._id)).toEqual(['a1', 'a2', 'a3', 'a4', 'a5']);
  });

  it('never holds an id twice, and holds every id of every page (property)', () => {
    const ids = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), { maxLength: 8 });
    fc.assert(
      fc.property(fc.array(ids, { maxLength: 5 }), (pages) => {
        const merged = mergePages(pages.map((page) => page.map((id) => item(id))));
        const mergedIds = merged.map((album) => album._id);
        expect(new Set(mergedIds).size).toBe(mergedIds.length);
        expect(new Set(mergedIds)).toEqual(new Set(pages.flat()));
      }),
    );
  });
});
