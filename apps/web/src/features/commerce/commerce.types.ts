/** Commerce shapes come from the shared contract (packages/contract/src/payments.ts). */
export type {
  ConfirmSandboxOrderBody,
  ConfirmSandboxOrderResponse,
  CreateSandboxOrderBody,
  CreateSandboxOrderResponse,
  Order,
  OrderResponse,
  OrderStatus,
  PurchasableItemType,
  SubscribeArtistBody,
  SubscriptionCycle,
} from '@backbeat/contract';
/** `POST /subscriptions/artist/:id`: what the chosen gateway's checkout needs (see the contract). */
export type { SubscribeArtistResponse as SubscribeResponse } from '@backbeat/contract';

/** Something the viewer can buy, with the amount the button shows (the server refuses any other amount). */
export interface Offer {
  kind: 'song' | 'album' | 'subscription';
  /** The song, album or artist id. */
  itemId: string;
  /** What is bought, for the button's accessible name: song or album title, artist name. */
  itemTitle: string;
  /** Minor units. */
  amount: number;
  currency: string;
}
