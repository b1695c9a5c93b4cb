import { pgEnum } from 'drizzle-orm/pg-core';

export const roleEnum = pgEnum('role', ['user', 'artist', 'admin']);
export const accessTypeEnum = pgEnum('access_type', ['subscription', 'purchase-only']);
export const processingStatusEnum = pgEnum('processing_status', ['processing', 'ready', 'failed']);
export const itemTypeEnum = pgEnum('item_type', ['song', 'album', 'subscription']);
export const gatewayEnum = pgEnum('gateway', ['stripe', 'razorpay', 'paypal', 'sandbox']);
export const orderStatusEnum = pgEnum('order_status', ['pending', 'paid', 'failed', 'cancelled', 'refunded']);
export const subscriptionStatusEnum = pgEnum('subscription_status', [
  'pending',
  'active',
  'cancelled',
  'expired',
]);
export const jobStatusEnum = pgEnum('job_status', ['queued', 'running', 'done', 'failed']);
