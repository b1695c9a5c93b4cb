import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dedupeShelves } from './home-shelves';

const rows = (...ids: string[]) => ids.map((id) => ({ id }));
const ids = (shelves: Array<Array<{ id: string }>>) => shelves.map((shelf) => shelf.map((row) => row.id));

describe('dedupeShelves', () => {
  it('lets earlier shelves win a song and refills later ones from their next candidates', () => {
    const out = dedupeShelves([
      { rows: rows('a', 'b'), limit: 2 },
      { rows: rows('b', 'c', 'd', 'e'), limit: 2 },
      { rows: rows('a', 'd', 'f'), limit: 3 },
    ]);
    expect(ids(out)).toEqual([['a', 'b'], ['c', 'd'], ['f']]);
  });

  it('takes a repeated candidate within one shelf once', () => {
    expect(ids(dedupeShelves([{ rows: rows('a', 'a', 'b'), limit: 3 }]))).toEqual([['a', 'b']]);
  });

  it('invariants: no id twice on the page; each shelf an in-order subsequence of its candidates, as full as it can be', () => {
    const shelf = fc.record({
      rows: fc.array(
        fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h').map((id) => ({ id })),
        {
          maxLength: 12,
        },
      ),
      limit: fc.integer({ min: 0, max: 6 }),
    });
    fc.assert(
      fc.property(fc.array(shelf, { maxLength: 6 }), (shelves) => {
        const out = dedupeShelves(shelves);
        const all = out.flat().map((row) => row.id);
        expect(new Set(all).size).toBe(all.length);
        const before = new Set<string>();
        out.forEach((picked, index) => {
          const { rows: candidates, limit } = shelves[index]!;
          expect(picked.length).toBeLessThanOrEqual(limit);
          // In order: each pick comes from the candidates after the previous pick.
          let cursor = 0;
          for (const row of picked) {
            cursor = candidates.findIndex((candidate, at) => at >= cursor && candidate.id === row.id) + 1;
            expect(cursor).toBeGreaterThan(0);
          }
          // As full as it can be: fewer than the limit only when no other candidate was free.
          const free = new Set(candidates.map((row) => row.id).filter((id) => !before.has(id)));
          expect(picked.length).toBe(Math.min(limit, free.size));
          for (const row of picked) before.add(row.id);
        });
      }),
    );
  });
});
