import { Lifecycle } from '../core/lifecycle';
import type { Obj } from '../core/store';
import type { StripeContext } from './context';
import { invalidRequest } from './dialect';
import { balanceTransaction, disputeObject } from './objects';

/** Dispute statuses Stripe moves through here: open, then won or lost. */
const disputes = new Lifecycle<'needs_response' | 'under_review' | 'won' | 'lost'>({
  needs_response: ['under_review', 'won', 'lost'],
  under_review: ['won', 'lost'],
  won: [],
  lost: [],
});

/** Disputes of a charge: opened by the buyer's bank, closed won or lost, with Stripe's balance transactions. */
export class StripeDisputes {
  constructor(private readonly ctx: StripeContext) {}

  /** The buyer's bank disputes the charge: the amount is withdrawn at once (`charge.dispute.funds_withdrawn`). */
  open(charge: Obj): Obj {
    if (charge.status !== 'succeeded') invalidRequest(`Charge ${charge.id} did not succeed.`);
    if (charge.disputed) invalidRequest(`Charge ${charge.id} is already disputed.`);
    const now = this.ctx.now();
    const dispute = disputeObject(now, charge);
    const withdrawal = balanceTransaction(now, {
      amount: -Number(charge.amount),
      currency: String(charge.currency),
      source: dispute.id,
      category: 'dispute',
      type: 'adjustment',
      description: `Chargeback withdrawal for ${charge.id}`,
    });
    dispute.balance_transactions = [withdrawal];
    this.ctx.save('disputes', dispute);
    this.ctx.store.meta('charges', charge.id).dispute = dispute.id;
    charge.disputed = true;
    this.ctx.save('charges', charge);
    this.ctx.emit('charge.dispute.created', dispute);
    this.ctx.emit('charge.dispute.funds_withdrawn', dispute);
    return dispute;
  }

  /** The bank decides: won reinstates the funds (`funds_reinstated`), lost keeps them withdrawn. */
  close(dispute: Obj, outcome: 'won' | 'lost'): Obj {
    const previous = { status: dispute.status };
    disputes.move(dispute, outcome, (from) => invalidRequest(`This dispute is already closed (${from}).`));
    if (outcome === 'won') {
      (dispute.balance_transactions as Obj[]).push(
        balanceTransaction(this.ctx.now(), {
          amount: Number(dispute.amount),
          currency: String(dispute.currency),
          source: dispute.id,
          category: 'dispute_reversal',
          type: 'adjustment',
          description: `Chargeback reversal for ${String(dispute.charge)}`,
        }),
      );
    }
    this.ctx.save('disputes', dispute);
    if (outcome === 'won') this.ctx.emit('charge.dispute.funds_reinstated', dispute, previous);
    this.ctx.emit('charge.dispute.closed', dispute, previous);
    return dispute;
  }
}
