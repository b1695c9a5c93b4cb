import { pgEnum } from 'drizzle-orm/pg-core';

export const roleEnum = pgEnum('role', ['user', 'artist', 'admin']);
export const accessTypeEnum = pgEnum('access_type', ['subscription', 'purchase-only']);
export const processingStatusEnum = pgEnum('processing_status', ['processing', 'ready', 'failed']);
export const itemTypeEnum = pgEnum('item_type', ['song', 'album', 'subscription']);
export const gatewayEnum = pgEnum('gateway', ['stripe', 'razorpay', 'paypal', 'sandbox']);
export const orderStatusEnum = pgEnum('order_status', [
  'pending',
  'paid',
  'failed',
  'cancelled',
  'refunded',
  'disputed',
]);
export const subscriptionStatusEnum = pgEnum('subscription_status', [
  'pending',
  'active',
  'cancelled',
  'expired',
  'past_due',
  'revoked',
]);
/** What took money back from a paid order: a refund, or a dispute (chargeback) opened by the buyer's bank. */
export const refundKindEnum = pgEnum('refund_kind', ['refund', 'dispute']);
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
