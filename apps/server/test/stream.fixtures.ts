import { randomBytes, randomUUID } from 'node:crypto';
import type { AppDb } from '../src/db/client';
import { albums, artists, purchases, sessions, songs, subscriptions, users } from '../src/db/schema';
import { hashToken } from '../src/platform/session-token';

const DAY = 24 * 60 * 60 * 1000;

export interface TestUser {
  id: string;
  /** The id of the user's session (stream tokens are bound to it). */
  sessionId: string;
  token: string;
  headers: { authorization: string };
}

/** A user with a live session, made directly in the tables (the auth module is not under test here). */
export async function createUser(db: AppDb, role: 'user' | 'artist' | 'admin' = 'user'): Promise<TestUser> {
  const id = randomUUID();
  await db.insert(users).values({ id, name: `${role} ${id.slice(0, 6)}`, email: `${id}@example.test`, role });
  const token = randomBytes(32).toString('base64url');
  const [session] = await db
    .insert(sessions)
    .values({ userId: id, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + DAY) })
    .returning({ id: sessions.id });
  return { id, sessionId: session!.id, token, headers: { authorization: `Bearer ${token}` } };
}

export async function createArtist(db: AppDb, values: { name: string; ownerUserId?: string | null }) {
  const id = randomUUID();
  await db.insert(artists).values({ id, name: values.name, ownerUserId: values.ownerUserId ?? null });
  return id;
}

export async function createAlbum(
  db: AppDb,
  values: { artistId: string; title: string; isPremium?: boolean },
) {
  const id = randomUUID();
  await db.insert(albums).values({ id, price: 999, ...values });
  return id;
}

export interface SongValues {
  artistId: string;
  title?: string;
  albumId?: string | null;
  trackNumber?: number;
  accessType?: 'subscription' | 'purchase-only';
  freeToStream?: boolean;
  status?: 'processing' | 'ready' | 'failed';
  failureReason?: string;
  hlsPrefix?: string | null;
  durationSec?: number;
}

export async function createSong(db: AppDb, values: SongValues) {
  const id = randomUUID();
  await db.insert(songs).values({
    id,
    title: values.title ?? `Song ${id.slice(0, 6)}`,
    singer: 'Test Singer',
    artistId: values.artistId,
    albumId: values.albumId ?? null,
    trackNumber: values.trackNumber ?? null,
    accessType: values.accessType ?? 'subscription',
    freeToStream: values.freeToStream ?? false,
    status: values.status ?? 'ready',
    failureReason: values.failureReason ?? null,
    hlsPrefix: values.hlsPrefix === undefined ? `songs/${id}/v1` : values.hlsPrefix,
    durationSec: values.durationSec ?? 8,
    price: 99,
  });
  return id;
}

export async function buySong(db: AppDb, userId: string, songId: string) {
  await db.insert(purchases).values({ userId, songId });
}

export async function buyAlbum(db: AppDb, userId: string, albumId: string) {
  await db.insert(purchases).values({ userId, albumId });
}

/** A subscription row; `endsInMs` negative for a period that has ended. */
export async function subscribe(
  db: AppDb,
  values: {
    userId: string;
    artistId: string;
    status: 'active' | 'cancelled' | 'expired' | 'pending';
    endsInMs: number;
  },
) {
  const id = randomUUID();
  await db.insert(subscriptions).values({
    id,
    userId: values.userId,
    artistId: values.artistId,
    status: values.status,
    gateway: 'sandbox',
    externalId: `sub_${id}`,
    currentPeriodEnd: new Date(Date.now() + values.endsInMs),
    cancelledAt: values.status === 'cancelled' ? new Date() : null,
  });
  return id;
}
