/**
 * Stripe's billing objects (products, prices, subscriptions, invoices) and events, complete as the pinned API
 * version defines them, like objects.ts does for payments.
 */
import { randomId, type Obj } from '../core/store';
import { base } from './objects';

export function productObject(created: number, values: { name: string; metadata?: object }): Obj {
  return {
    ...base('product', 'prod_', created),
    active: true,
    default_price: null,
    description: null,
    images: [],
    marketing_features: [],
    metadata: values.metadata ?? {},
    name: values.name,
    package_dimensions: null,
    shippable: null,
    statement_descriptor: null,
    tax_code: null,
    tax_details: null,
    type: 'service',
    unit_label: null,
    updated: created,
    url: null,
  };
}

export function priceObject(
  created: number,
  values: {
    amount: number;
    currency: string;
    product: string;
    nickname: string | null;
    months: number | null;
    metadata?: object;
  },
): Obj {
  return {
    ...base('price', 'price_', created),
    active: true,
    billing_scheme: 'per_unit',
    currency: values.currency,
    custom_unit_amount: null,
    lookup_key: null,
    metadata: values.metadata ?? {},
    nickname: values.nickname,
    product: values.product,
    recurring: values.months
      ? {
          interval: 'month',
          interval_count: values.months,
          meter: null,
          trial_period_days: null,
          usage_type: 'licensed',
        }
      : null,
    tax_behavior: 'unspecified',
    tiers_mode: null,
    transform_quantity: null,
    type: values.months ? 'recurring' : 'one_time',
    unit_amount: values.amount,
    unit_amount_decimal: null,
  };
}

/** The legacy `plan` view of a recurring price, which subscription items still carry. */
export function planOf(price: Obj): Obj {
  const recurring = price.recurring as { interval: string; interval_count: number };
  return {
    id: price.id,
    object: 'plan',
    active: true,
    amount: price.unit_amount,
    amount_decimal: null,
    billing_scheme: 'per_unit',
    created: price.created,
    currency: price.currency,
    interval: recurring.interval,
    interval_count: recurring.interval_count,
    livemode: false,
    metadata: price.metadata,
    meter: null,
    nickname: price.nickname,
    product: price.product,
    tiers_mode: null,
    transform_usage: null,
    trial_period_days: null,
    usage_type: 'licensed',
  };
}

export function subscriptionObject(
  created: number,
  values: {
    customer: string;
    price: Obj;
    start: number;
    end: number;
    paymentMethod: string | null;
    metadata: object;
  },
): Obj {
  const id = randomId('sub_');
  const item = {
    ...base('subscription_item', 'si_', created),
    billing_thresholds: null,
    current_period_end: values.end,
    current_period_start: values.start,
    current_trial: null,
    discounts: [],
    metadata: {},
    plan: planOf(values.price),
    price: values.price,
    quantity: 1,
    subscription: id,
    tax_rates: [],
  };
  delete (item as { livemode?: boolean }).livemode;
  return {
    ...base('subscription', 'sub_', created),
    id,
    application: null,
    application_fee_percent: null,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null },
    billing_cycle_anchor: values.start,
    billing_cycle_anchor_config: null,
    billing_mode: { flexible: null, type: 'classic' },
    billing_schedules: [],
    billing_thresholds: null,
    cancel_at: null,
    cancel_at_period_end: false,
    canceled_at: null,
    cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
    collection_method: 'charge_automatically',
    currency: values.price.currency,
    customer: values.customer,
    customer_account: null,
    days_until_due: null,
    default_payment_method: values.paymentMethod,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    ended_at: null,
    invoice_settings: {
      account_tax_ids: null,
      custom_fields: null,
      description: null,
      footer: null,
      issuer: { type: 'self' },
    },
    items: {
      object: 'list',
      data: [item],
      has_more: false,
      url: `/v1/subscription_items?subscription=${id}`,
    },
    latest_invoice: null,
    managed_payments: null,
    metadata: values.metadata,
    next_pending_invoice_item_invoice: null,
    on_behalf_of: null,
    pause_collection: null,
    payment_settings: {
      payment_method_options: null,
      payment_method_types: null,
      save_default_payment_method: 'off',
    },
    pending_invoice_item_interval: null,
    pending_setup_intent: null,
    pending_update: null,
    schedule: null,
    start_date: values.start,
    status: 'incomplete',
    test_clock: null,
    transfer_data: null,
    trial_end: null,
    trial_settings: {
      end_behavior: { billing_cycle_anchor: null, missing_payment_method: 'create_invoice' },
    },
    trial_start: null,
  };
}

export function invoiceObject(
  created: number,
  values: {
    subscription: Obj;
    price: Obj;
    customer: Obj | undefined;
    reason: string;
    start: number;
    end: number;
    number: string;
    intent: Obj;
  },
): Obj {
  const amount = Number(values.price.unit_amount);
  const invoice: Obj = {
    ...base('invoice', 'in_', created),
    account_country: 'US',
    account_name: 'Backbeat (emulator)',
    account_tax_ids: null,
    amount_due: amount,
    amount_overpaid: 0,
    amount_paid: 0,
    amount_remaining: amount,
    amount_shipping: 0,
    application: null,
    attempt_count: 0,
    attempted: false,
    auto_advance: true,
    automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
    automatically_finalizes_at: null,
    billing_reason: values.reason,
    collection_method: 'charge_automatically',
    currency: values.price.currency,
    custom_fields: null,
    customer: values.subscription.customer,
    customer_account: null,
    customer_address: null,
    customer_email: values.customer?.email ?? null,
    customer_name: values.customer?.name ?? null,
    customer_phone: null,
    customer_shipping: null,
    customer_tax_exempt: 'none',
    default_payment_method: null,
    default_source: null,
    default_tax_rates: [],
    description: null,
    discounts: [],
    due_date: null,
    effective_at: created,
    ending_balance: 0,
    footer: null,
    from_invoice: null,
    hosted_invoice_url: null,
    invoice_pdf: null,
    issuer: { type: 'self' },
    last_finalization_error: null,
    latest_revision: null,
    lines: {
      object: 'list',
      has_more: false,
      url: '',
      data: [
        {
          id: randomId('il_'),
          object: 'line_item',
          amount,
          currency: values.price.currency,
          description: `1 × ${String(values.price.nickname ?? 'subscription')}`,
          discount_amounts: [],
          discountable: true,
          discounts: [],
          invoice: '',
          livemode: false,
          metadata: {},
          parent: {
            invoice_item_details: null,
            subscription_item_details: {
              invoice_item: null,
              proration: false,
              proration_details: { credited_items: null },
              subscription: values.subscription.id,
              subscription_item: ((values.subscription.items as { data: Obj[] }).data[0] as Obj).id,
            },
            type: 'subscription_item_details',
          },
          period: { end: values.end, start: values.start },
          pretax_credit_amounts: [],
          pricing: {
            price_details: { price: values.price.id, product: values.price.product },
            type: 'price_details',
            unit_amount_decimal: null,
          },
          quantity: 1,
          quantity_decimal: null,
          subscription: values.subscription.id,
          subtotal: amount,
          taxes: [],
        },
      ],
    },
    metadata: {},
    next_payment_attempt: null,
    number: values.number,
    on_behalf_of: null,
    parent: {
      quote_details: null,
      subscription_details: {
        metadata: values.subscription.metadata ?? {},
        subscription: values.subscription.id,
      },
      type: 'subscription_details',
    },
    payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
    period_end: values.end,
    period_start: values.start,
    post_payment_credit_notes_amount: 0,
    pre_payment_credit_notes_amount: 0,
    receipt_number: null,
    rendering: null,
    shipping_cost: null,
    shipping_details: null,
    starting_balance: 0,
    statement_descriptor: null,
    status: 'open',
    status_transitions: {
      finalized_at: created,
      marked_uncollectible_at: null,
      paid_at: null,
      voided_at: null,
    },
    subtotal: amount,
    subtotal_excluding_tax: amount,
    test_clock: null,
    total: amount,
    total_discount_amounts: [],
    total_excluding_tax: amount,
    total_pretax_credit_amounts: [],
    total_taxes: [],
    webhooks_delivered_at: created,
  };
  const lines = invoice.lines as { url: string; data: Obj[] };
  lines.url = `/v1/invoices/${invoice.id}/lines`;
  lines.data[0]!.invoice = invoice.id;
  return invoice;
}

/** The invoice's payment record (expand: ['payments']). */
export function invoicePaymentObject(created: number, invoice: Obj, intent: Obj): Obj {
  return {
    ...base('invoice_payment', 'inpay_', created),
    amount_paid: null,
    amount_requested: invoice.amount_due,
    currency: invoice.currency,
    invoice: invoice.id,
    is_default: true,
    payment: { payment_intent: intent.id, type: 'payment_intent' },
    status: 'open',
    status_transitions: { canceled_at: null, paid_at: null },
  };
}

export function eventObject(
  created: number,
  type: string,
  object: Obj,
  previous: Record<string, unknown> | undefined,
  apiVersion: string,
): Obj {
  return {
    ...base('event', 'evt_', created),
    api_version: apiVersion,
    data: { object, ...(previous ? { previous_attributes: previous } : {}) },
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
  };
}
