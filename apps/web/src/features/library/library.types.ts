import type { Album, Song } from '@backbeat/contract';

/**
 * The user dashboard shapes of SPEC section 7. The server answers the contract's `UserPurchasesResponse` and
 * `UserSubscriptionsResponse` (packages/contract/src/dashboard.ts); fields beyond the SPEC's are read defensively.
 */
export interface PaymentHistoryEntry {
  _id: string;
  itemType?: 'song' | 'album' | 'subscription' | string;
  itemId?: string | null;
  title?: string;
  itemTitle?: string;
  amount?: number;
  currency?: string;
  gateway?: string;
  status?: string;
  cycle?: string | null;
  /** A renewal the gateway charged for a running subscription. */
  renewal?: boolean;
  /** Money taken back from this order. */
  refunds?: Array<{
    _id: string;
    kind: 'refund' | 'dispute' | 'reversal';
    amount: number;
    currency: string;
    createdAt: string;
  }>;
  createdAt?: string;
}

export interface PurchasesResponse {
  songs: Song[];
  albums: Album[];
  history: PaymentHistoryEntry[];
}

export interface UserSubscription {
  _id: string;
  artist?: { _id: string; name: string; image?: string | null } | null;
  artistId?: string;
  artistName?: string;
  status?: string;
  cycle?: string;
  gateway?: string;
  currentPeriodEnd?: string;
  /** Cancelled, but it still plays until `currentPeriodEnd`. */
  cancelAtPeriodEnd?: boolean;
  createdAt?: string;
}
