import type { Clock } from '../core/clock';
import { ProviderState } from '../core/provider';
import { Refusal } from '../core/router';
import type { Obj, Store } from '../core/store';
import type { WebhookDispatcher } from '../core/webhooks';
import { missing, STRIPE_API_VERSION, stripeSignature, type StripeCredentials } from './dialect';
import { eventObject } from './billing-objects';

/** Which collection an expandable field's id lives in. */
const EXPANDABLE: Record<string, string> = {
  latest_invoice: 'invoices',
  latest_charge: 'charges',
  customer: 'customers',
  payment_intent: 'payment_intents',
  charge: 'charges',
  payment_method: 'payment_methods',
  default_payment_method: 'payment_methods',
  subscription: 'subscriptions',
};

/** The Stripe emulator's shared state and the few things every part of it does: find, emit, expand. */
export class StripeContext extends ProviderState {
  /** Extra fields an object shows only when expanded (`invoice.payments`, `charge.refunds`, …). */
  readonly includables = new Map<string, (object: Obj, field: string) => unknown>();

  constructor(
    readonly credentials: StripeCredentials,
    store: Store,
    clock: Clock,
    readonly webhooks: WebhookDispatcher,
  ) {
    super(store, clock);
  }

  now(): number {
    return this.clock.nowSeconds();
  }

  protected missing(collection: string, id: string): never {
    return missing(collection.replace(/s$/, ''), id);
  }

  /** An object by id, or Stripe's `resource_missing` naming the parameter that held the id. */
  retrieve(collection: string, kind: string, id: string, param = 'id'): Obj {
    return this.find(collection, id) ?? missing(kind, id, param);
  }

  /** Records an event (with a snapshot of the object) and hands it to the webhook dispatcher. */
  emit(type: string, object: Obj, previous?: Record<string, unknown>): Obj {
    const event = eventObject(this.now(), type, structuredClone(object), previous, STRIPE_API_VERSION);
    this.save('events', event);
    const body = JSON.stringify(event, null, 2);
    // Signed with the real time at each attempt: Stripe's libraries check the timestamp against their clock.
    this.webhooks.send('stripe', event.id, type, body, () => ({
      'stripe-signature': stripeSignature(
        body,
        this.credentials.webhookSecret,
        Math.floor(Date.now() / 1000),
      ),
    }));
    return event;
  }

  /** An object with `expand` paths applied (`latest_invoice.confirmation_secret`, `payments`, …). */
  expand(object: Obj, paths: string[]): Obj {
    const out: Obj = { ...object };
    for (const path of paths) {
      const [head, ...rest] = path.split('.');
      if (!head) continue;
      const include = this.includables.get(`${String(object.object)}.${head}`);
      if (include) {
        out[head] = include(object, head);
        continue;
      }
      const id = out[head];
      const collection = EXPANDABLE[head];
      if (typeof id !== 'string' || !collection) {
        if (typeof id === 'object' && id !== null && rest.length > 0)
          out[head] = this.expand(id as Obj, [rest.join('.')]);
        else if (!(head in out)) {
          throw new Refusal(missingExpansion(path, String(object.object)));
        }
        continue;
      }
      const found = this.find(collection, id);
      if (found) out[head] = rest.length > 0 ? this.expand(found, [rest.join('.')]) : found;
    }
    return out;
  }
}

function missingExpansion(path: string, object: string) {
  return {
    status: 400,
    json: {
      error: {
        type: 'invalid_request_error',
        message: `This property cannot be expanded (${path}). You may want to try expanding '${object}.${path}' instead.`,
        param: 'expand',
      },
    },
  };
}
