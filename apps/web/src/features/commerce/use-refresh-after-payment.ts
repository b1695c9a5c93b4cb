import { useCallback } from 'react';
import { backbeatApi } from '../../lib/api-query';
import { addPurchasedAlbum, addPurchasedSong, fetchProfile } from '../auth';
import { clearStreams, leavePreview, pause } from '../player';
import { useCommerceDispatch, useCommerceStore } from './commerce.store';
import type { Order } from './commerce.types';

/** Every list whose songs may now play, or which shows what the user owns or subscribes to. */
export const PAYMENT_INVALIDATES = [
  'Songs',
  'Albums',
  'Artists',
  'LikedSongs',
  'Purchases',
  'Subscriptions',
] as const;

/**
 * After a paid order: the bought id is added to the user at once, catalogue lists refetch (their `canPlay`
 * changed), the user is read again from the server, and the player forgets refused streams so pressing play asks
 * the server anew.
 */
export function useRefreshAfterPayment() {
  const dispatch = useCommerceDispatch();
  const store = useCommerceStore();
  return useCallback(
    async (order: Pick<Order, 'itemType' | 'itemId'>) => {
      if (order.itemId && order.itemType === 'song') dispatch(addPurchasedSong(order.itemId));
      if (order.itemId && order.itemType === 'album') dispatch(addPurchasedAlbum(order.itemId));
      dispatch(backbeatApi.util.invalidateTags([...PAYMENT_INVALIDATES]));
      // A refused song still counts as wanted in the player (that is what shows its refusal); once the stream is
      // allowed it would start by itself when the listener is back. They press play instead.
      const { player, stream } = store.getState();
      if (player.selectedSong && stream.error?.songId === player.selectedSong._id) dispatch(pause());
      // A song bought from its preview: the player leaves the preview, and play next plays the whole song.
      dispatch(leavePreview());
      dispatch(clearStreams());
      await dispatch(fetchProfile());
    },
    [dispatch, store],
  );
}
