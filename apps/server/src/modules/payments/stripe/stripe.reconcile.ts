import type Stripe from 'stripe';
import type { AdjustmentsRepository } from '../adjustments.repository';
import type { ReconciliationSource, Tally, Window } from '../reconciliation';
import { STRIPE_EVENT_TYPES, type StripeEvents } from './stripe.events';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * Stripe keeps every event for 30 days and lists them (`GET /v1/events`), dropped webhooks included, so
 * reconciliation replays the window's events of the types Backbeat applies through the webhook path, oldest first;
 * an event applied before is skipped by its id. A succeeded PaymentIntent of ours that no order knows is an issue.
 */
export function stripeReconciliation(
  stripe: Stripe,
  events: StripeEvents,
  adjustments: AdjustmentsRepository,
  clock: () => Date,
): ReconciliationSource {
  return {
    gateway: 'stripe',
    async reconcile(window: Window, tally: Tally) {
      const listed: Stripe.Event[] = [];
      for await (const event of stripe.events.list({
        created: { gte: seconds(window.from), lte: seconds(window.to) },
        types: [...STRIPE_EVENT_TYPES],
        limit: 100,
      })) {
        listed.push(event);
      }
      listed.sort((a, b) => a.created - b.created);
      for (const event of listed) {
        tally.examined += 1;
        const handled = await events.handle(event);
        if (!handled) continue;
        tally.fixes.push(...handled.changes.map((change) => `${event.type} ${event.id}: ${change}`));
        const object = event.data.object as {
          id?: string;
          amount?: number;
          currency?: string;
          metadata?: object;
        };
        if (handled.outcome?.status === 'unknown_order' && event.type === 'payment_intent.succeeded') {
          tally.problems += 1;
          await adjustments.openIssue({
            gateway: 'stripe',
            kind: 'unknown_payment',
            externalId: object.id ?? event.id,
            amount: object.amount ?? null,
            currency: object.currency?.toUpperCase() ?? null,
            detail: `a succeeded PaymentIntent no order knows (${handled.outcome.note ?? ''})`,
            at: clock(),
          });
        }
      }
    },
  };
}
