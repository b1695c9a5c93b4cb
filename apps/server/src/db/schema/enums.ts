import { pgEnum } from 'drizzle-orm/pg-core';
import { AccessType, Gateway, ItemType, OrderStatus, PaymentIssueKind, Role } from '@backbeat/contract';

/**
 * A contract enum's values, in the contract's order, as the tuple pgEnum takes: where the API and the database
 * speak of the same thing, the database enum is the contract's (a value added there reaches a migration here).
 */
const valuesOf = <T extends string>(contractEnum: { options: T[] }) => contractEnum.options as [T, ...T[]];

export const roleEnum = pgEnum('role', valuesOf(Role));
export const accessTypeEnum = pgEnum('access_type', valuesOf(AccessType));
/**
 * A song's state. `removed`: its artist deleted it after it was sold (a purchase is forever): it left the catalogue
 * (every public list asks for `ready`) but its media stays, playable by those who hold it (see modules/access).
 */
export const processingStatusEnum = pgEnum('processing_status', ['processing', 'ready', 'failed', 'removed']);
/** The statuses whose media plays and downloads (for whom is the access policy's to decide). */
export const PLAYABLE_SONG_STATUSES = ['ready', 'removed'] as const;
export const itemTypeEnum = pgEnum('item_type', valuesOf(ItemType));
export const gatewayEnum = pgEnum('gateway', valuesOf(Gateway));
export const orderStatusEnum = pgEnum('order_status', valuesOf(OrderStatus));
export const subscriptionStatusEnum = pgEnum('subscription_status', [
  'pending',
  'active',
  'cancelled',
  'expired',
  'past_due',
  'revoked',
]);
/**
 * What moved money back or forth after a payment: a refund, a dispute (chargeback) opened by the buyer's bank, or
 * the reversal of a dispute the seller won (the money comes back; recorded with a negative amount).
 */
export const refundKindEnum = pgEnum('refund_kind', ['refund', 'dispute', 'reversal']);
/**
 * Money the ledger could not settle on its own, for an admin to see: a capture for another amount than the order's,
 * a second payment for something the buyer owns, a payment no order knows, a refund or a cancellation the gateway
 * kept refusing.
 */
export const paymentIssueKindEnum = pgEnum('payment_issue_kind', valuesOf(PaymentIssueKind));
export const paymentIssueStatusEnum = pgEnum('payment_issue_status', ['open', 'resolved']);
export const reconciliationStatusEnum = pgEnum('reconciliation_status', ['running', 'succeeded', 'failed']);
export const paymentEventStatusEnum = pgEnum('payment_event_status', [
  'received',
  'processed',
  'ignored',
  'unknown_order',
]);
export const jobStatusEnum = pgEnum('job_status', ['queued', 'running', 'done', 'failed']);
/** A full listen, or a preview of a song the listener may not play (counted when the preview starts). */
export const playKindEnum = pgEnum('play_kind', ['full', 'preview']);
/**
 * Files made from a song besides its stream: its preview (encrypted HLS of a short window), and its download
 * formats (MP3 320 kbit/s, and the lossless original kept as FLAC).
 */
export const renditionKindEnum = pgEnum('rendition_kind', ['preview', 'mp3', 'flac']);
export const downloadFormatEnum = pgEnum('download_format', ['mp3', 'flac']);
