/**
 * Stripe's objects, complete as the pinned API version defines them (every field the `stripe` package's types mark
 * required, null where nothing applies). Each factory takes what varies and fills the rest; the emulator's tests
 * type-check every served object against those types.
 */
import { randomId, type Obj } from '../core/store';

export const base = (object: string, prefix: string, created: number) => ({
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
