import { randomBytes, randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { eq } from 'drizzle-orm';
import {
  artists,
  passwordResets,
  paymentIssues,
  songRenditions,
  songs,
  subscriptions,
} from '../src/db/schema';
import { EmailChangeTokens } from '../src/modules/auth/email-change-token';
import { storeCoverImage } from '../src/modules/catalog/cover-images';
import { encodeMp3, locateFfmpeg } from '../src/modules/media';
import { hashToken } from '../src/platform/session-token';
import { randomIp, registerUser, uniqueEmail } from './auth-helpers';
import { catalogFixtures } from './catalog-fixtures';
import { browserForm, postJson, webhooksSettled, type GatewayTestApp } from './gateways.fixtures';
import { transcodeTestSong } from './stream.media-fixtures';

/**
 * The world the authorization matrix runs in: six actors and what they act on. "artist" manages artist A, which
 * owns the album, the songs and the dashboards under test; "otherArtist" manages artist B. Both listeners are
 * subscribed to A (so a refusal is about who they are, not about what they paid for); "listener" alone has
 * preferred genres and owns the playlist, the orders and the stream link the matrix points at.
 */
export const ACTORS = [
  'guest',
  'listenerWithoutGenres',
  'listener',
  'otherArtist',
  'artist',
  'admin',
] as const;
export type Actor = (typeof ACTORS)[number];
export type SignedInActor = Exclude<Actor, 'guest'>;

export interface MatrixUser {
  id: string;
  headers: Record<string, string>;
  /** The profile an artist account manages. */
  artistId?: string;
  artistName?: string;
}

export type MatrixWorld = Awaited<ReturnType<typeof buildWorld>>;

const PRICE = 199;

export async function buildWorld(g: GatewayTestApp) {
  const { ctx, emulator } = g;
  const db = ctx.database.db;
  const f = catalogFixtures(ctx.database);
  const inject = ctx.app.inject.bind(ctx.app);

  const rock = await f.genre('Rock');
  const makeUser = async (actor: SignedInActor): Promise<MatrixUser> => {
    const role = actor === 'admin' ? 'admin' : actor.endsWith('rtist') ? 'artist' : 'user';
    const user = await f.user(role, `${actor} ${randomBytes(2).toString('hex')}`);
    if (actor === 'listener') await f.prefer(user.id, rock.id);
    if (role !== 'artist') return { id: user.id, headers: user.headers };
    const artist = await f.artist({
      name: `${actor} profile ${randomBytes(2).toString('hex')}`,
      ownerUserId: user.id,
    });
    return { id: user.id, headers: user.headers, artistId: artist.id, artistName: artist.name };
  };
  const made = {
    listenerWithoutGenres: await makeUser('listenerWithoutGenres'),
    listener: await makeUser('listener'),
    otherArtist: await makeUser('otherArtist'),
    artist: await makeUser('artist'),
    admin: await makeUser('admin'),
  };
  const users: Record<SignedInActor, MatrixUser> = made;
  const artistA = made.artist.artistId!;
  const artistB = made.otherArtist.artistId!;

  // Artist A's catalogue: an album with a streamable song (real encrypted HLS), a song still processing.
  const album = await f.album({ artistId: artistA, title: 'Matrix Album', price: 999, genreId: rock.id });
  const media = await transcodeTestSong(4);
  const song = await f.song({
    artistId: artistA,
    title: 'Matrix Song',
    albumId: album.id,
    trackNumber: 1,
    genreId: rock.id,
  });
  const hlsPrefix = `songs/${song.id}/v1`;
  await media.install(ctx.app.services.mediaStore, hlsPrefix);
  await media.cleanup();
  await db.update(songs).set({ hlsPrefix }).where(eq(songs.id, song.id));
  // Its preview (an encrypted HLS of its own, under its own key) and its MP3 download file, as the media jobs
  // make them; artist A lets subscribers download, so both subscribed listeners may.
  const previewMedia = await transcodeTestSong(4);
  const previewPrefix = `songs/${song.id}/p0123456789abcdef`;
  await previewMedia.install(ctx.app.services.mediaStore, previewPrefix);
  await previewMedia.cleanup();
  await db.update(artists).set({ allowSubscriberDownloads: true }).where(eq(artists.id, artistA));
  const processing = await f.song({ artistId: artistA, title: 'Still Processing', status: 'processing' });
  await f.song({ artistId: artistB, title: 'Other Song' });
  for (const listener of [made.listener, made.listenerWithoutGenres]) await f.subscribe(listener.id, artistA);

  // A picture in the media store, for /media.
  const work = mkdtempSync(path.join(tmpdir(), 'backbeat-matrix-'));
  const png = path.join(work, 'a.png');
  await sharp({ create: { width: 64, height: 64, channels: 3, background: '#123456' } })
    .png()
    .toFile(png);
  const imageKey = await storeCoverImage(ctx.app.services.mediaStore, png, 'artist');
  await db.update(artists).set({ image: imageKey }).where(eq(artists.id, artistA));

  // A short WAV for song uploads.
  const tools = await locateFfmpeg();
  const wavFile = path.join(work, 'tone.wav');
  execFileSync(tools.ffmpeg, [
    ...['-hide_banner', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi'],
    ...['-i', 'sine=frequency=440:duration=1', '-ac', '1', wavFile],
  ]);
  const wav = readFileSync(wavFile);
  const pngBytes = readFileSync(png);
  const mp3Folder = path.join(work, 'mp3');
  mkdirSync(mp3Folder);
  await encodeMp3(tools, { input: wavFile, outFile: path.join(mp3Folder, 'download.mp3') });
  const mp3Prefix = `songs/${song.id}/m0123456789abcdef`;
  await ctx.app.services.mediaStore.put(mp3Prefix, mp3Folder);
  rmSync(work, { recursive: true, force: true });
  await db.insert(songRenditions).values([
    { songId: song.id, kind: 'preview', hlsPrefix, mediaKey: previewPrefix, startSec: 0, durationSec: 4 },
    { songId: song.id, kind: 'mp3', hlsPrefix, mediaKey: `${mp3Prefix}/download.mp3`, durationSec: 1 },
  ]);

  // The listener's stream link for the song (a capability URL: playlist, key and audio carry its token).
  const streamed = await inject({
    method: 'GET',
    url: `/api/stream/song/${song.id}`,
    headers: made.listener.headers,
  });
  if (streamed.statusCode !== 200) throw new Error(`the listener cannot stream: ${streamed.body}`);
  const playlistUrl = streamed.json<{ url: string }>().url;
  const token = new URL(playlistUrl, 'http://x').searchParams.get('token')!;
  const stream = {
    playlist: `/api/stream/hls/${song.id}/index.m3u8?token=${token}`,
    key: `/api/stream/hls/${song.id}/key?token=${token}`,
    audio: `/api/stream/audio/${song.id}?token=${token}`,
    segment: `/api/stream/hls/${song.id}/seg_0000.ts`,
  };

  // The listener's preview link (its own token kind) and download link (bound to the account and session).
  const previewed = await inject({
    method: 'GET',
    url: `/api/stream/song/${song.id}/preview`,
    headers: made.listener.headers,
  });
  if (previewed.statusCode !== 200) throw new Error(`the listener cannot preview: ${previewed.body}`);
  const previewToken = new URL(previewed.json<{ url: string }>().url, 'http://x').searchParams.get('token')!;
  const preview = {
    playlist: `/api/stream/preview/${song.id}/index.m3u8?token=${encodeURIComponent(previewToken)}`,
    key: `/api/stream/preview/${song.id}/key?token=${encodeURIComponent(previewToken)}`,
    audio: `/api/stream/preview/${song.id}/audio?token=${encodeURIComponent(previewToken)}`,
    segment: `/api/stream/preview/${song.id}/seg_0000.ts`,
  };
  const linked = await inject({
    method: 'POST',
    url: `/api/downloads/song/${song.id}`,
    payload: { format: 'mp3' },
    headers: made.listener.headers,
  });
  if (linked.statusCode !== 201) throw new Error(`the listener cannot download: ${linked.body}`);
  const downloadLink = linked.json<{ url: string }>().url;

  /** A ready song of artist A sold on its own, new for each cell (buying one changes what its buyer owns). */
  const freshSong = async () =>
    (
      await f.song({
        artistId: artistA,
        title: `For Sale ${randomBytes(3).toString('hex')}`,
        accessType: 'purchase-only',
        price: PRICE,
      })
    ).id;
  const post = (url: string, payload: unknown, user: MatrixUser) =>
    inject({ method: 'POST', url, payload: payload as object, headers: user.headers });
  const must = async (response: Awaited<ReturnType<typeof inject>>, what: string) => {
    if (response.statusCode >= 300) throw new Error(`${what}: ${response.statusCode} ${response.body}`);
    return response.json<Record<string, unknown>>();
  };

  /** One payment per gateway as setup, so each has a real, signed event to deliver again. */
  const stripePayment = await must(
    await post(
      '/api/payments/stripe/create-payment',
      { itemType: 'song', itemId: await freshSong(), amount: PRICE },
      made.listener,
    ),
    'stripe create-payment',
  );
  const intentId = String(stripePayment.clientSecret).split('_secret_')[0]!;
  const card = await browserForm(
    emulator.stripe.url,
    g.credentials.stripe.publishableKey,
    '/v1/payment_methods',
    {
      type: 'card',
      'card[number]': '4242424242424242',
      'card[exp_month]': '12',
      'card[exp_year]': '39',
    },
  );
  await browserForm(
    emulator.stripe.url,
    g.credentials.stripe.publishableKey,
    `/v1/payment_intents/${intentId}/confirm`,
    {
      client_secret: String(stripePayment.clientSecret),
      payment_method: String(card.body.id),
    },
  );

  const razorpayPaid = async () => {
    const created = await must(
      await post(
        '/api/payments/razorpay/create-order',
        { itemType: 'song', itemId: await freshSong(), amount: PRICE },
        made.listener,
      ),
      'razorpay create-order',
    );
    const paid = await postJson(`${emulator.razorpay.url}/_emulator/checkout/pay`, {
      key: g.credentials.razorpay.keyId,
      card: '4111111111111111',
      outcome: 'success',
      order_id: (created.order as { id: string }).id,
    });
    return paid.body!.response as Record<string, string>;
  };
  const paypalControl = (to: string) => postJson(`${emulator.paypal.url}/_emulator${to}`, {});
  const paypalApprovedOrder = async () => {
    const created = await must(
      await post(
        '/api/payments/paypal/create-order',
        { itemType: 'song', itemId: await freshSong(), amount: PRICE },
        made.listener,
      ),
      'paypal create-order',
    );
    await paypalControl(`/orders/${String(created.id)}/approve`);
    return String(created.id);
  };
  await must(
    await post('/api/payments/razorpay/verify', await razorpayPaid(), made.listener),
    'razorpay verify',
  );
  await must(
    await post('/api/payments/paypal/capture-order', { orderId: await paypalApprovedOrder() }, made.listener),
    'paypal capture',
  );
  for (const gateway of ['stripe', 'razorpay', 'paypal'] as const) await webhooksSettled(emulator, gateway);
  const lastEvent = (gateway: 'stripe' | 'razorpay' | 'paypal') => {
    const event = emulator.events(gateway).at(-1);
    if (!event) throw new Error(`no ${gateway} event`);
    return event.eventId;
  };
  const webhookEvents = {
    stripe: lastEvent('stripe'),
    razorpay: lastEvent('razorpay'),
    paypal: lastEvent('paypal'),
  };

  const sandboxOrder = async (paid: boolean) => {
    const created = await must(
      await post(
        '/api/payments/sandbox/create-order',
        { itemType: 'song', itemId: await freshSong(), amount: PRICE },
        made.listener,
      ),
      'sandbox create-order',
    );
    const id = (created.order as { _id: string })._id;
    if (paid)
      await must(
        await post(`/api/payments/sandbox/orders/${id}/confirm`, { outcome: 'pay' }, made.listener),
        'pay',
      );
    return id;
  };
  const listenerOrder = await sandboxOrder(true);
  const loginAccount = await registerUser(ctx);

  return {
    ctx,
    users,
    wav,
    /** A small PNG, for picture uploads. */
    png: pngBytes,
    ids: {
      artistA,
      artistB,
      album: album.id,
      song: song.id,
      processing: processing.id,
      genre: 'Rock',
      imageKey,
    },
    stream,
    preview,
    downloadLink,
    listenerOrder,
    loginAccount,
    freshSong,
    sandboxOrder,
    razorpayPaid,

    /** A payment issue for the admin to settle (a payment no order knows). */
    async paymentIssue() {
      const [row] = await ctx.database.db
        .insert(paymentIssues)
        .values({
          gateway: 'stripe',
          kind: 'unknown_payment',
          externalId: `pi_${randomBytes(8).toString('hex')}`,
          detail: 'a succeeded PaymentIntent no order knows',
        })
        .returning({ id: paymentIssues.id });
      return row!.id;
    },
    paypalApprovedOrder,

    /** A PayPal subscription of the listener's to a new artist, approved by the buyer, not yet confirmed. */
    async paypalApprovedSubscription() {
      const created = await must(
        await post(
          `/api/subscriptions/artist/${await this.freshArtist()}`,
          { gateway: 'paypal', cycle: '1m' },
          made.listener,
        ),
        'paypal subscribe',
      );
      await paypalControl(`/approve/subscription/${String(created.subscriptionId)}`);
      return String(created.subscriptionId);
    },

    /** A signed event as its gateway would deliver it again now (body and fresh signature headers). */
    webhook(gateway: 'stripe' | 'razorpay' | 'paypal') {
      const event = emulator.signedEvent(webhookEvents[gateway])!;
      return { body: event.body, headers: event.headers };
    },

    /** A new artist no account manages. */
    async freshArtist() {
      return (await f.artist({ name: `Fresh ${randomBytes(3).toString('hex')}` })).id;
    },
    async freshAlbum() {
      return (await f.album({ artistId: artistA, title: `Fresh Album ${randomBytes(3).toString('hex')}` }))
        .id;
    },
    /** A playlist of the listener's, holding `songIds`. */
    async playlist(songIds: string[] = []) {
      const created = await must(
        await post('/api/playlists', { name: `Mine ${randomUUID().slice(0, 6)}` }, made.listener),
        'playlist',
      );
      const id = (created.playlist as { _id: string })._id;
      for (const songId of songIds)
        await must(await post(`/api/playlists/${id}/songs`, { songId }, made.listener), 'add');
      return id;
    },
    async subscribe(userId: string, artistId: string) {
      await db.insert(subscriptions).values({
        userId,
        artistId,
        status: 'active',
        gateway: 'sandbox',
        currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000),
      });
    },
    /** A usable password-reset link of a new account. */
    async resetToken() {
      const owner = await f.user('user');
      const token = randomBytes(32).toString('base64url');
      await db.insert(passwordResets).values({
        userId: owner.id,
        tokenHash: hashToken(token),
        expiresAt: new Date(Date.now() + 3_600_000),
      });
      return token;
    },
    /** A new account's mailed e-mail change link (its token and new address), as the settings page sends it. */
    async emailChangeLink() {
      const owner = await f.user('user');
      const email = uniqueEmail('moved');
      const token = new EmailChangeTokens(ctx.config.secretKey).issue(
        owner.id,
        owner.email,
        email,
        Date.now(),
      );
      return { token, email };
    },
    /** The issuer's answer to a completed social sign-in: the callback address and the flow cookie it goes with. */
    async socialCallback() {
      const start = await inject({ method: 'GET', url: '/api/auth/google' });
      const flow = start.cookies.find((cookie) => cookie.name === 'oidc_flow')!.value;
      const approved = await fetch(String(start.headers.location), { redirect: 'manual' });
      const callback = new URL(approved.headers.get('location')!);
      return { url: `${callback.pathname}${callback.search}`, cookies: { oidc_flow: flow } };
    },
    /** Another account of the same kind, for a cell that ends its session or changes what defines the actor. */
    fresh: makeUser,
    newEmail: () => uniqueEmail('matrix'),
    ip: randomIp,
  };
}
