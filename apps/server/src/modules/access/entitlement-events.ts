/** Whose entitlements changed: one account, or everyone's (a catalogue change that alters many decisions). */
export type EntitlementChange = { userId: string } | { everyone: true };

export type EntitlementListener = (change: EntitlementChange) => void;

/**
 * In-process notice that an account's purchases or subscriptions changed (a payment, a renewal, a refund, a
 * cancellation, from a request or from a gateway's webhook). Every cache whose answers depend on entitlements
 * listens here instead of being called by each writer. Other instances see the change when their caches expire
 * (docs/deploy.md lists the bounds).
 */
export class EntitlementEvents {
  private readonly listeners = new Set<EntitlementListener>();

  on(listener: EntitlementListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(change: EntitlementChange): void {
    for (const listener of this.listeners) listener(change);
  }
}
