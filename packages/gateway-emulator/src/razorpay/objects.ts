/**
 * Razorpay's entities as its API documents them (Payments, Orders, Refunds, Disputes, Plans, Subscriptions entities),
 * complete: every documented field, null where nothing applies. The emulator's tests check them against the
 * `razorpay` package's type definitions.
 */
import { Lifecycle } from '../core/lifecycle';
import { randomId, type Obj } from '../core/store';

const id = (prefix: string) => randomId(prefix, 14);

export function orderObject(
  created: number,
  values: { amount: number; currency: string; receipt: string | null; notes: object },
): Obj {
  return {
    id: id('order_'),
    entity: 'order',
    amount: values.amount,
    amount_paid: 0,
    amount_due: values.amount,
    currency: values.currency,
    receipt: values.receipt,
    offer_id: null,
    status: 'created',
    attempts: 0,
    notes: values.notes,
    created_at: created,
  };
}

export type PaymentError = {
  code: string;
  description: string;
  reason: string;
  source: string;
  step: string;
};

export function paymentObject(
  created: number,
  values: {
    amount: number;
    currency: string;
    orderId: string;
    invoiceId?: string | null;
    error?: PaymentError;
    email?: string;
    customerId?: string | null;
  },
): Obj {
  return {
    id: id('pay_'),
    entity: 'payment',
    amount: values.amount,
    currency: values.currency,
    status: values.error ? 'failed' : 'authorized',
    order_id: values.orderId,
    invoice_id: values.invoiceId ?? null,
    international: false,
    method: 'card',
    amount_refunded: 0,
    refund_status: null,
    captured: false,
    description: null,
    card_id: id('card_'),
    bank: null,
    wallet: null,
    vpa: null,
    email: values.email ?? 'buyer@example.com',
    contact: '+919000090000',
    customer_id: values.customerId ?? null,
    token_id: null,
    notes: {},
    fee: null,
    tax: null,
    error_code: values.error?.code ?? null,
    error_description: values.error?.description ?? null,
    error_source: values.error?.source ?? null,
    error_step: values.error?.step ?? null,
    error_reason: values.error?.reason ?? null,
    acquirer_data: values.error ? {} : { auth_code: randomId('', 6, '0123456789') },
    created_at: created,
  };
}

export function refundObject(
  created: number,
  payment: Obj,
  values: { amount: number; notes: object; receipt: string | null; speed: string },
): Obj {
  return {
    id: id('rfnd_'),
    entity: 'refund',
    amount: values.amount,
    currency: payment.currency,
    payment_id: payment.id,
    notes: values.notes,
    receipt: values.receipt,
    acquirer_data: { arn: null },
    created_at: created,
    batch_id: null,
    status: 'processed',
    speed_processed: 'normal',
    speed_requested: values.speed,
  };
}

export function disputeObject(created: number, payment: Obj): Obj {
  return {
    id: id('disp_'),
    entity: 'dispute',
    payment_id: payment.id,
    amount: payment.amount,
    currency: payment.currency,
    amount_deducted: 0,
    reason_code: 'chargeback',
    reason_description: 'The customer does not recognise the transaction.',
    respond_by: created + 7 * 24 * 3600,
    status: 'open',
    phase: 'chargeback',
    comments: null,
    evidence: {
      amount: payment.amount,
      summary: null,
      shipping_proof: null,
      billing_proof: null,
      cancellation_proof: null,
      customer_communication: null,
      proof_of_service: null,
      explanation_letter: null,
      refund_confirmation: null,
      access_activity_log: null,
      refund_cancellation_policy: null,
      term_and_conditions: null,
      others: null,
      submitted_at: null,
    },
    created_at: created,
  };
}

export function planObject(
  created: number,
  values: {
    interval: number;
    period: string;
    name: string;
    description: string | null;
    amount: number;
    currency: string;
    notes: object;
  },
): Obj {
  return {
    id: id('plan_'),
    entity: 'plan',
    interval: values.interval,
    period: values.period,
    item: {
      id: id('item_'),
      active: true,
      name: values.name,
      ...(values.description ? { description: values.description } : {}),
      amount: values.amount,
      unit_amount: values.amount,
      currency: values.currency,
      type: 'plan',
      unit: null,
      tax_inclusive: false,
      hsn_code: null,
      sac_code: null,
      tax_rate: null,
      tax_id: null,
      tax_group_id: null,
      created_at: created,
      updated_at: created,
    },
    notes: values.notes,
    created_at: created,
  };
}

export function subscriptionObject(
  created: number,
  values: { planId: string; total: number; notes: object; shortUrl: (id: string) => string },
): Obj {
  const subscriptionId = id('sub_');
  return {
    id: subscriptionId,
    entity: 'subscription',
    plan_id: values.planId,
    customer_id: null,
    payment_method: null,
    status: 'created',
    current_start: null,
    current_end: null,
    ended_at: null,
    quantity: 1,
    notes: values.notes,
    charge_at: null,
    start_at: null,
    end_at: null,
    auth_attempts: 0,
    total_count: values.total,
    paid_count: 0,
    customer_notify: true,
    created_at: created,
    expire_by: null,
    short_url: values.shortUrl(subscriptionId),
    has_scheduled_changes: false,
    change_scheduled_at: null,
    source: 'api',
    offer_id: null,
    remaining_count: values.total,
  };
}

/**
 * A subscription's invoice (Razorpay's Invoices API entity): one per charge, naming its payment and order and the
 * billing period the charge pays for.
 */
export function invoiceObject(
  created: number,
  values: {
    id: string;
    subscriptionId: string;
    paymentId: string;
    orderId: string;
    customerId: string | null;
    amount: number;
    currency: string;
    paid: boolean;
    period: { start: number; end: number } | null;
  },
): Obj {
  return {
    id: values.id,
    entity: 'invoice',
    type: 'invoice',
    invoice_number: null,
    customer_id: values.customerId,
    customer_details: null,
    order_id: values.orderId,
    subscription_id: values.subscriptionId,
    line_items: [],
    payment_id: values.paid ? values.paymentId : null,
    status: values.paid ? 'paid' : 'issued',
    expire_by: null,
    issued_at: created,
    paid_at: values.paid ? created : null,
    cancelled_at: null,
    expired_at: null,
    sms_status: null,
    email_status: null,
    date: created,
    terms: null,
    partial_payment: false,
    gross_amount: values.amount,
    tax_amount: 0,
    taxable_amount: values.amount,
    amount: values.amount,
    amount_paid: values.paid ? values.amount : 0,
    amount_due: values.paid ? 0 : values.amount,
    currency: values.currency,
    currency_symbol: values.currency === 'INR' ? '₹' : values.currency,
    description: null,
    notes: {},
    comment: null,
    short_url: null,
    view_less: true,
    billing_start: values.period?.start ?? null,
    billing_end: values.period?.end ?? null,
    group_taxes_discounts: false,
    created_at: created,
  };
}

/** A payment's statuses and Razorpay's moves between them. */
export const PAYMENT_STATES = new Lifecycle<'created' | 'authorized' | 'captured' | 'refunded' | 'failed'>({
  created: ['authorized', 'failed'],
  authorized: ['captured', 'refunded', 'failed'],
  captured: ['refunded'],
  refunded: [],
  failed: [],
});
/** A dispute's statuses. */
export const DISPUTE_STATES = new Lifecycle<'open' | 'under_review' | 'won' | 'lost' | 'closed'>({
  open: ['under_review', 'won', 'lost'],
  under_review: ['won', 'lost'],
  won: [],
  lost: [],
  closed: [],
});
