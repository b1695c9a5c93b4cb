import { configureStore } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backbeatApi } from '../../lib/api-query';
import { dashboardApi } from '../dashboard/dashboard.api';
import { studioApi } from './studio.api';

const makeStore = () =>
  configureStore({
    reducer: { [backbeatApi.reducerPath]: backbeatApi.reducer },
    middleware: (getDefault) => getDefault().concat(backbeatApi.middleware),
  });

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

/** The artists whose subscriber counts the RTK Query cache holds. */
function cachedCounts(store: ReturnType<typeof makeStore>): string[] {
  return Object.values(store.getState().api.queries)
    .filter((entry) => entry?.endpointName === 'getSubscriberCount')
    .map((entry) => String(entry!.originalArgs))
    .sort();
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('deleting an artist', () => {
  it("drops that artist's cached subscriber counts and keeps the other artists'", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: string | URL | Request, init?: RequestInit) =>
        init?.method === 'DELETE'
          ? json({ message: 'Artist deleted successfully' })
          : json({ activeSubscribers: 3, totalRevenue: 1497, currency: 'USD' }),
      ),
    );
    const store = makeStore();
    for (const artistId of ['artist-gone', 'artist-kept']) {
      // Read once and let go, as a dashboard does when the admin leaves it.
      const read = store.dispatch(dashboardApi.endpoints.getSubscriberCount.initiate(artistId));
      await read.unwrap();
      read.unsubscribe();
    }
    expect(cachedCounts(store)).toEqual(['artist-gone', 'artist-kept']);

    await store.dispatch(studioApi.endpoints.deleteArtist.initiate('artist-gone')).unwrap();
    await vi.waitFor(() => expect(cachedCounts(store)).toEqual(['artist-kept']));
  });
});
