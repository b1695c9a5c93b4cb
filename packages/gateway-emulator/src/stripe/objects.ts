/**
 * Stripe's objects, complete as the pinned API version defines them (every field the `stripe` package's types mark
 * required, null where nothing applies). Each factory takes what varies and fills the rest; the emulator's tests
 * type-check every served object against those types.
 */
import { randomId, type Obj } from '../core/store';

const base = (object: string, prefix: string, created: number) => ({
  id: randomId(prefix),
  object,
  created,
  livemode: false,
});
/** Refunds and balance transactions carry no `livemode`. */
const bare = (object: string, prefix: string, created: number) => ({ id: randomId(prefix), object, created });

export const address = (values: Record<string, string | undefined> = {}) => ({
  city: values.city ?? null,
  country: values.country ?? null,
  line1: values.line1 ?? null,
  line2: values.line2 ?? null,
  postal_code: values.postal_code ?? null,
  state: values.state ?? null,
});

export function billingDetails(values: { name?: string; email?: string; postalCode?: string } = {}) {
  return {
    address: values.postalCode ? address({ postal_code: values.postalCode }) : null,
    email: values.email ?? null,
    name: values.name ?? null,
    phone: null,
    tax_id: null,
  };
}

export function customerObject(
  created: number,
  values: { email?: string; name?: string; metadata?: object },
): Obj {
  return {
    ...base('customer', 'cus_', created),
    address: null,
    balance: 0,
    currency: null,
    default_source: null,
    delinquent: false,
    description: null,
    email: values.email ?? null,
    invoice_prefix: randomId('', 8).toUpperCase(),
    invoice_settings: {
      custom_fields: null,
      default_payment_method: null,
      footer: null,
      rendering_options: null,
    },
    metadata: values.metadata ?? {},
    name: values.name ?? null,
    next_invoice_sequence: 1,
    phone: null,
    preferred_locales: [],
    shipping: null,
    tax_exempt: 'none',
    test_clock: null,
  };
}

export function paymentMethodObject(
  created: number,
  card: { brand: string; last4: string; expMonth: number; expYear: number },
  billing: ReturnType<typeof billingDetails>,
): Obj {
  return {
    ...base('payment_method', 'pm_', created),
    allow_redisplay: 'unspecified',
    billing_details: billing,
    card: {
      brand: card.brand,
      checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
      country: 'US',
      display_brand: card.brand,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      fingerprint: randomId('', 16),
      funding: 'credit',
      generated_from: null,
      last4: card.last4,
      networks: { available: [card.brand], preferred: null },
      regulated_status: 'unregulated',
      three_d_secure_usage: { supported: true },
      wallet: null,
    },
    customer: null,
    customer_account: null,
    metadata: {},
    type: 'card',
  };
}

export function paymentIntentObject(
  created: number,
  values: {
    amount: number;
    currency: string;
    customer?: string | null;
    description?: string | null;
    paymentMethod?: string | null;
    metadata?: object;
    automatic?: boolean;
    setupFutureUsage?: string | null;
  },
): Obj {
  const intent: Obj = {
    ...base('payment_intent', 'pi_', created),
    allowed_payment_method_types: null,
    amount: values.amount,
    amount_capturable: 0,
    amount_details: { tip: {} },
    amount_received: 0,
    application: null,
    application_fee_amount: null,
    automatic_payment_methods: values.automatic ? { allow_redirects: 'always', enabled: true } : null,
    canceled_at: null,
    cancellation_reason: null,
    capture_method: 'automatic_async',
    client_secret: '',
    confirmation_method: 'automatic',
    currency: values.currency,
    customer: values.customer ?? null,
    customer_account: null,
    description: values.description ?? null,
    excluded_payment_method_types: null,
    last_payment_error: null,
    latest_charge: null,
    managed_payments: null,
    metadata: values.metadata ?? {},
    next_action: null,
    on_behalf_of: null,
    payment_method: values.paymentMethod ?? null,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' },
    },
    payment_method_types: ['card'],
    payment_record: null,
    processing: null,
    receipt_email: null,
    review: null,
    setup_future_usage: values.setupFutureUsage ?? null,
    shipping: null,
    source: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: values.paymentMethod ? 'requires_confirmation' : 'requires_payment_method',
    transfer_data: null,
    transfer_group: null,
  };
  intent.client_secret = `${intent.id}_secret_${randomId('', 25)}`;
  return intent;
}

export function chargeObject(
  created: number,
  intent: Obj,
  method: Obj | undefined,
  failure: { code: string; declineCode: string; message: string } | null,
): Obj {
  const card = (method?.card ?? {}) as Record<string, unknown>;
  const amount = Number(intent.amount);
  return {
    ...base('charge', 'ch_', created),
    amount,
    amount_captured: failure ? 0 : amount,
    amount_refunded: 0,
    application: null,
    application_fee: null,
    application_fee_amount: null,
    balance_transaction: failure ? null : randomId('txn_'),
    billing_details: method?.billing_details ?? billingDetails(),
    calculated_statement_descriptor: 'BACKBEAT',
    captured: !failure,
    currency: intent.currency,
    customer: intent.customer ?? null,
    description: intent.description ?? null,
    disputed: false,
    failure_balance_transaction: null,
    failure_code: failure?.code ?? null,
    failure_message: failure?.message ?? null,
    fraud_details: {},
    livemode: false,
    metadata: intent.metadata ?? {},
    on_behalf_of: null,
    outcome: {
      advice_code: null,
      network_advice_code: null,
      network_decline_code: null,
      network_status: failure ? 'declined_by_network' : 'approved_by_network',
      reason: failure ? failure.declineCode : null,
      risk_level: 'normal',
      risk_score: 20,
      seller_message: failure
        ? 'The bank did not return any further details with this decline.'
        : 'Payment complete.',
      type: failure ? 'issuer_declined' : 'authorized',
    },
    paid: !failure,
    payment_intent: intent.id,
    payment_method: intent.payment_method ?? null,
    payment_method_details: {
      card: {
        amount_authorized: failure ? null : amount,
        authorization_code: failure ? null : randomId('', 6, '0123456789'),
        brand: card.brand ?? null,
        checks: card.checks ?? null,
        country: card.country ?? null,
        electronic_commerce_indicator: null,
        exp_month: card.exp_month ?? 12,
        exp_year: card.exp_year ?? 2030,
        funding: card.funding ?? null,
        installments: null,
        last4: card.last4 ?? null,
        mandate: null,
        network: card.brand ?? null,
        network_transaction_id: failure ? null : randomId('', 15, '0123456789'),
        regulated_status: 'unregulated',
        three_d_secure: null,
        transaction_link_id: null,
        wallet: null,
      },
      type: 'card',
    },
    radar_options: {},
    receipt_email: null,
    receipt_number: null,
    receipt_url: null,
    refunded: false,
    review: null,
    shipping: null,
    source: null,
    source_transfer: null,
    statement_descriptor: null,
    statement_descriptor_suffix: null,
    status: failure ? 'failed' : 'succeeded',
    transfer_data: null,
    transfer_group: null,
  };
}

export function refundObject(
  created: number,
  charge: Obj,
  values: { amount: number; reason: string | null; metadata?: object },
): Obj {
  return {
    ...bare('refund', 're_', created),
    amount: values.amount,
    balance_transaction: randomId('txn_'),
    charge: charge.id,
    currency: charge.currency,
    customer: charge.customer ?? null,
    customer_account: null,
    destination_details: {
      card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' },
      type: 'card',
    },
    metadata: values.metadata ?? {},
    payment_intent: charge.payment_intent,
    payment_method: charge.payment_method ?? null,
    reason: values.reason,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
}

export function balanceTransaction(
  created: number,
  values: {
    amount: number;
    currency: string;
    source: string;
    category: string;
    type: string;
    description: string;
  },
): Obj {
  return {
    ...bare('balance_transaction', 'txn_', created),
    amount: values.amount,
    available_on: created,
    balance_type: 'payments',
    currency: values.currency,
    description: values.description,
    exchange_rate: null,
    fee: 0,
    fee_details: [],
    net: values.amount,
    reporting_category: values.category,
    source: values.source,
    status: 'available',
    type: values.type,
  };
}

export function disputeObject(created: number, charge: Obj): Obj {
  const nulls = (names: string[]) => Object.fromEntries(names.map((name) => [name, null]));
  return {
    ...base('dispute', 'du_', created),
    amount: charge.amount,
    balance_transactions: [],
    charge: charge.id,
    currency: charge.currency,
    enhanced_eligibility_types: [],
    evidence: {
      ...nulls(
        'access_activity_log billing_address cancellation_policy cancellation_policy_disclosure cancellation_rebuttal customer_communication customer_email_address customer_name customer_purchase_ip customer_signature duplicate_charge_documentation duplicate_charge_explanation duplicate_charge_id product_description receipt refund_policy refund_policy_disclosure refund_refusal_explanation service_date service_documentation shipping_address shipping_carrier shipping_date shipping_documentation shipping_tracking_number uncategorized_file uncategorized_text'.split(
          ' ',
        ),
      ),
      enhanced_evidence: {},
    },
    evidence_details: {
      due_by: created + 7 * 24 * 3600,
      enhanced_eligibility: {},
      has_evidence: false,
      past_due: false,
      submission_count: 0,
      submission_method: 'not_submitted',
    },
    intended_submission_method: null,
    is_charge_refundable: false,
    metadata: {},
    payment_intent: charge.payment_intent,
    payment_method_details: {
      card: { brand: 'visa', case_type: 'chargeback', network: 'visa', network_reason_code: '10.4' },
      type: 'card',
    },
    reason: 'fraudulent',
    status: 'needs_response',
  };
}

export function setupIntentObject(
  created: number,
  values: { customer: string | null; usage: string; metadata?: object },
): Obj {
  const intent: Obj = {
    ...base('setup_intent', 'seti_', created),
    allowed_payment_method_types: null,
    application: null,
    automatic_payment_methods: null,
    cancellation_reason: null,
    client_secret: '',
    customer: values.customer,
    customer_account: null,
    description: null,
    excluded_payment_method_types: null,
    flow_directions: null,
    last_setup_error: null,
    latest_attempt: null,
    mandate: null,
    metadata: values.metadata ?? {},
    next_action: null,
    on_behalf_of: null,
    payment_method: null,
    payment_method_configuration_details: null,
    payment_method_options: {
      card: { mandate_options: null, network: null, request_three_d_secure: 'automatic' },
    },
    payment_method_types: ['card'],
    single_use_mandate: null,
    status: 'requires_payment_method',
    usage: values.usage,
  };
  intent.client_secret = `${intent.id}_secret_${randomId('', 25)}`;
  return intent;
}

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
