import type { ChangeBus } from '../../platform/change-bus';

/** Whose entitlements changed: one account, or everyone's (a catalogue change that alters many decisions). */
export type EntitlementChange = { userId: string } | { everyone: true };

export type EntitlementListener = (change: EntitlementChange) => void;

/**
 * Notice that an account's purchases or subscriptions changed (a payment, a renewal, a refund, a cancellation,
 * from a request or from a gateway's webhook). Every cache whose answers depend on entitlements listens here
 * instead of being called by each writer. Changes travel over the change bus, so every instance and worker hears
 * them, not only the one that handled the payment; a process that may have missed some (its listening connection
 * dropped) hears `everyone`.
 */
export class EntitlementEvents {
  constructor(private readonly bus: ChangeBus) {}

  on(listener: EntitlementListener): () => void {
    return this.bus.on((change) => {
      if (change.kind === 'reset') listener({ everyone: true });
      else if (change.kind === 'entitlements')
        listener(change.userId ? { userId: change.userId } : { everyone: true });
    });
  }

  /** Resolves once every instance has been sent the change (see `ChangeBus.publish`). */
  changed(change: EntitlementChange): Promise<void> {
    return this.bus.publish({ kind: 'entitlements', userId: 'userId' in change ? change.userId : null });
  }
}
