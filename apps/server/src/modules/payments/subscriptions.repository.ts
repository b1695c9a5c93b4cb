import { and, desc, eq, gt, ne } from 'drizzle-orm';
import type { PaymentGateway as GatewayName } from '@backbeat/contract';
import type { AppDb } from '../../db/client';
import { subscriptions } from '../../db/schema';
import { subscriptionToArtistPlays } from '../access';
import type { NewSubscription, SubscriptionRow } from './payments.repository';

/** The user's subscriptions to the artist that are active (not cancelled) and paid through a date after `now`. */
export const activeSubscriptionsOf = (userId: string, artistId: string, now: Date) =>
  and(
    eq(subscriptions.userId, userId),
    eq(subscriptions.artistId, artistId),
    eq(subscriptions.status, 'active'),
    gt(subscriptions.currentPeriodEnd, now),
  );

/** The SQL of subscriptions: the gateway's subscription per subscriber and artist, and its paid period. */
export class SubscriptionsRepository {
  constructor(private readonly db: AppDb) {}

  /** The subscription that still plays at `now` (latest end first), locked until the transaction ends. */
  async lockPaidThroughSubscription(
    userId: string,
    artistId: string,
    now: Date,
  ): Promise<SubscriptionRow | null> {
    const [row] = await this.db
      .select()
      .from(subscriptions)
      .where(subscriptionToArtistPlays(userId, artistId, now))
      .orderBy(desc(subscriptions.currentPeriodEnd), desc(subscriptions.createdAt))
      .limit(1)
      .for('update');
    return row ?? null;
  }

  async insertSubscription(values: NewSubscription): Promise<SubscriptionRow> {
    const [row] = await this.db.insert(subscriptions).values(values).returning();
    return row!;
  }

  async extendSubscription(id: string, values: { periodEnd: Date; cycle: string; now: Date }): Promise<void> {
    await this.db
      .update(subscriptions)
      .set({
        status: 'active',
        cycle: values.cycle,
        currentPeriodEnd: values.periodEnd,
        cancelAtPeriodEnd: false,
        cancelledAt: null,
        updatedAt: values.now,
      })
      .where(eq(subscriptions.id, id));
  }

  /** Cancels the user's active subscriptions to the artist; access lasts until their period end. */
  async cancelActiveSubscriptions(userId: string, artistId: string, now: Date): Promise<number> {
    const rows = await this.db
      .update(subscriptions)
      .set({ status: 'cancelled', cancelAtPeriodEnd: true, cancelledAt: now, updatedAt: now })
      .where(activeSubscriptionsOf(userId, artistId, now))
      .returning({ id: subscriptions.id });
    return rows.length;
  }

  async findSubscriptionByExternal(
    gateway: GatewayName,
    externalId: string,
  ): Promise<SubscriptionRow | null> {
    const [row] = await this.byExternal(gateway, externalId);
    return row ?? null;
  }

  /** Whether the user has another subscription to the artist that plays at `now`. */
  async hasOtherPlayingSubscription(
    userId: string,
    artistId: string,
    subscriptionId: string,
    now: Date,
  ): Promise<boolean> {
    const rows = await this.db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(and(subscriptionToArtistPlays(userId, artistId, now), ne(subscriptions.id, subscriptionId)))
      .limit(1);
    return rows.length > 0;
  }

  async findSubscription(id: string): Promise<SubscriptionRow | null> {
    const [row] = await this.byId(id);
    return row ?? null;
  }

  /** A gateway subscription by the gateway's id, locked until the transaction ends. */
  async lockSubscriptionByExternal(
    gateway: GatewayName,
    externalId: string,
  ): Promise<SubscriptionRow | null> {
    const [row] = await this.byExternal(gateway, externalId).for('update');
    return row ?? null;
  }

  async lockSubscription(id: string): Promise<SubscriptionRow | null> {
    const [row] = await this.byId(id).for('update');
    return row ?? null;
  }

  async updateSubscription(
    id: string,
    values: Partial<Omit<NewSubscription, 'id' | 'userId' | 'artistId'>> & { updatedAt: Date },
  ): Promise<SubscriptionRow> {
    const [row] = await this.db.update(subscriptions).set(values).where(eq(subscriptions.id, id)).returning();
    return row!;
  }

  /** The user's subscriptions to the artist that still play or are about to (pending), newest first. */
  async renewingSubscriptionsOf(userId: string, artistId: string, now: Date): Promise<SubscriptionRow[]> {
    return this.db
      .select()
      .from(subscriptions)
      .where(
        and(subscriptionToArtistPlays(userId, artistId, now), eq(subscriptions.cancelAtPeriodEnd, false)),
      )
      .orderBy(desc(subscriptions.currentPeriodEnd));
  }

  private byId(id: string) {
    return this.db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1);
  }

  private byExternal(gateway: GatewayName, externalId: string) {
    return this.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.gateway, gateway), eq(subscriptions.externalId, externalId)))
      .limit(1);
  }
}
