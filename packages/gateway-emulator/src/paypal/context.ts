import { createSign, generateKeyPairSync, randomUUID, type KeyObject } from 'node:crypto';
import type { Clock } from '../core/clock';
import { ProviderState } from '../core/provider';
import { randomId, UPPER_ALPHANUMERIC, type Obj, type Store } from '../core/store';
import type { WebhookDispatcher } from '../core/webhooks';
import { notFound, paypalSignedText, type PaypalCredentials } from './dialect';

/** PayPal's ids: 17 upper-case alphanumerics for transactions and orders, 13 for payer ids. */
export const paypalId = (length = 17) => randomId('', length, UPPER_ALPHANUMERIC);

/** A line of PayPal's Transaction Search, as its `transaction_info` documents it. */
export interface TransactionRecord {
  id: string;
  transaction_id: string;
  paypal_reference_id?: string;
  paypal_reference_id_type?: 'ODR' | 'TXN' | 'SUB' | 'PAP';
  transaction_event_code: string;
  transaction_initiation_date: string;
  transaction_updated_date: string;
  transaction_amount: { currency_code: string; value: string };
  fee_amount: { currency_code: string; value: string };
  transaction_status: 'S' | 'P' | 'V' | 'D';
  custom_field?: string;
  invoice_id?: string;
  protection_eligibility: string;
}

/** The PayPal emulator's shared state and what every part of it does: find, emit signed events, link, record. */
export class PaypalContext extends ProviderState {
  readonly keys: { publicKey: KeyObject; privateKey: KeyObject } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
  });

  constructor(
    readonly credentials: PaypalCredentials,
    store: Store,
    clock: Clock,
    private readonly webhooks: WebhookDispatcher,
  ) {
    super(store, clock);
  }

  /** PayPal's timestamps: RFC 3339 without fractions. */
  iso(date: Date = this.clock.now()): string {
    return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  protected missing(): never {
    return notFound();
  }

  link(path: string, rel: string, method = 'GET') {
    return { href: `${this.baseUrl}${path}`, rel, method };
  }

  /** What an editable object (a catalog product, a billing plan) ends with: its times, and self and edit links. */
  editable(path: string) {
    const now = this.iso();
    return {
      create_time: now,
      update_time: now,
      links: [this.link(path, 'self'), this.link(path, 'edit', 'PATCH')],
    };
  }

  /** Records a webhook event (kept for the event API) and hands it to the dispatcher, signed as PayPal signs. */
  emit(type: string, resource: Obj | Record<string, unknown>, summary: string): Obj {
    const resourceType = resourceTypeOf(type);
    const id = `WH-${paypalId(17)}-${paypalId(17)}`;
    const event: Obj = {
      id,
      event_version: '1.0',
      create_time: this.iso(),
      resource_type: resourceType,
      resource_version:
        resourceType === 'sale' || (resourceType === 'refund' && 'sale_id' in resource) ? '1.0' : '2.0',
      event_type: type,
      summary,
      resource: structuredClone(resource),
      links: [
        this.link(`/v1/notifications/webhooks-events/${id}`, 'self'),
        this.link(`/v1/notifications/webhooks-events/${id}/resend`, 'resend', 'POST'),
      ],
    };
    this.save('events', event);
    const body = JSON.stringify(event);
    this.webhooks.send('paypal', id, type, body, () => {
      const transmissionId = randomUUID();
      const time = new Date().toISOString();
      const signature = createSign('RSA-SHA256')
        .update(paypalSignedText(transmissionId, time, this.credentials.webhookId, body))
        .sign(this.keys.privateKey, 'base64');
      return {
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-time': time,
        'paypal-transmission-sig': signature,
        'paypal-cert-url': `${this.baseUrl}/v1/notifications/certs/CERT-backbeat-emulator`,
        'paypal-auth-algo': 'SHA256withRSA',
      };
    });
    return event;
  }

  /**
   * A balance-affecting line for Transaction Search: captures T0006, subscription sales T0002, refunds T1107,
   * reversals T1106; `reference` is what it refers to (order ODR, subscription SUB, transaction TXN).
   */
  record(
    code: string,
    transactionId: string,
    reference: { id: string; type: 'ODR' | 'TXN' | 'SUB' },
    amount: { currency_code: string; value: string },
    custom?: unknown,
  ): void {
    const now = this.iso();
    this.store.put<TransactionRecord>('transactions', transactionId, {
      id: transactionId,
      transaction_id: transactionId,
      paypal_reference_id: reference.id,
      paypal_reference_id_type: reference.type,
      transaction_event_code: code,
      transaction_initiation_date: now,
      transaction_updated_date: now,
      transaction_amount: amount,
      fee_amount: { currency_code: amount.currency_code, value: '0.00' },
      transaction_status: 'S',
      ...(typeof custom === 'string' ? { custom_field: custom } : {}),
      protection_eligibility: '01',
    });
  }

  /** Updates a recorded line's status (a refunded capture stays S; a reversed one becomes V). */
  restate(transactionId: string, status: TransactionRecord['transaction_status']): void {
    const line = this.store.get<TransactionRecord>('transactions', transactionId);
    if (!line) return;
    line.transaction_status = status;
    line.transaction_updated_date = this.iso();
    this.store.changed();
  }
}

/** The `resource_type` PayPal gives each event. */
function resourceTypeOf(type: string): string {
  if (/^PAYMENT\.CAPTURE\.(REFUNDED|REVERSED)$/.test(type) || type === 'PAYMENT.SALE.REFUNDED')
    return 'refund';
  if (type.startsWith('PAYMENT.CAPTURE.')) return 'capture';
  if (type.startsWith('PAYMENT.SALE.')) return 'sale';
  if (type.startsWith('BILLING.SUBSCRIPTION.')) return 'subscription';
  if (type.startsWith('CUSTOMER.DISPUTE.')) return 'dispute';
  return 'checkout-order';
}

/** The two test buyers (payer ids in PayPal's 13-character format). */
export const TEST_BUYERS = {
  pays: {
    payer_id: 'TESTBUYER0001',
    email_address: 'buyer@example.com',
    name: { given_name: 'Test', surname: 'Buyer' },
  },
  declined: {
    payer_id: 'TESTDECLINED1',
    email_address: 'declined-buyer@example.com',
    name: { given_name: 'Declined', surname: 'Buyer' },
  },
} as const;
export type Buyer = keyof typeof TEST_BUYERS;
