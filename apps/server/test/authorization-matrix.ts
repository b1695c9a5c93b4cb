import type { LightMyRequestResponse } from 'fastify';
import { multipartForm } from './catalog-fixtures';
import { ACTORS, type Actor, type MatrixUser, type MatrixWorld } from './authorization-world';

/**
 * Who may do what: every route of the served OpenAPI document, as `METHOD /api/path/{param}`, times the six
 * actors, with the status a representative valid request gets. `authorization-matrix.test.ts` checks that the rows
 * are exactly the document's routes (a new route without a row fails) and then runs every cell.
 *
 * Where an answer is neither a success, 401 nor 403, `why` says why that is the design. Targets owned by someone
 * (a playlist, an order, a stream link) are the listener's or artist A's, so the other actors show what happens to
 * somebody else's; a request that changes its target gets a new one per cell, so cells do not depend on each other.
 */
export type Expected = Record<Actor, number>;

export interface CellRequest {
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  payload?: string | object | FormData;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  remoteAddress?: string;
}

/** The cells of one request shape: its status for each actor, and how each actor's request is made. */
export interface MatrixCells {
  expect: Expected;
  /** Why a cell's answer is what it is, where that is not 2xx, 401 or 403 (required there). */
  why?: Partial<Record<Actor, string>>;
  /** The request for one actor; `user` is whose session it carries (null for the guest). */
  request: (world: MatrixWorld, actor: Actor, user: MatrixUser | null) => Promise<CellRequest> | CellRequest;
  /**
   * The cell acts as a new account of the actor's kind: the request ends the session or the account, or changes
   * what makes the actor what it is (its genres, its artist profile).
   */
  freshActor?: true;
  /** Beyond the status: what is wrong with a cell's answer (what it shows), if anything. */
  check?: (response: LightMyRequestResponse, world: MatrixWorld, actor: Actor) => string | undefined;
}

/** A route's row: its main cells, and more request shapes where who may do it depends on the query. */
export interface MatrixRow extends MatrixCells {
  variants?: Record<string, MatrixCells>;
}

const each = (status: number): Expected =>
  Object.fromEntries(ACTORS.map((actor) => [actor, status])) as Expected;
/** Any signed-in account; a guest is asked to sign in. */
const signedIn = (status: number): Expected => ({ ...each(status), guest: 401 });
/** Artist A's account and admins; other accounts are refused. */
const managersOfA = (status: number): Expected => ({
  guest: 401,
  listenerWithoutGenres: 403,
  listener: 403,
  otherArtist: 403,
  artist: status,
  admin: status,
});
/** The listener's own; anybody else's answers like a missing one (404): its existence is not revealed. */
const listenersOwn = (status: number): Expected => ({
  guest: 401,
  listenerWithoutGenres: 404,
  listener: status,
  otherArtist: 404,
  artist: 404,
  admin: 404,
});
const NOT_REVEALED = 'not theirs: answered like an unknown id, so its existence is not revealed';
const notRevealed: MatrixRow['why'] = {
  listenerWithoutGenres: NOT_REVEALED,
  otherArtist: NOT_REVEALED,
  artist: NOT_REVEALED,
  admin: `${NOT_REVEALED} (admins see orders through the dashboards)`,
};
const notTheListenersLink =
  'a stream link belongs to the account it was issued to: another signed-in account is refused';
const streamLink: Pick<MatrixRow, 'expect' | 'why'> = {
  expect: {
    guest: 200,
    listenerWithoutGenres: 403,
    listener: 200,
    otherArtist: 403,
    artist: 403,
    admin: 403,
  },
  why: {
    guest:
      'the link is a capability bound to the listener’s live session: a player without cookies may use it',
    listenerWithoutGenres: notTheListenersLink,
    otherArtist: notTheListenersLink,
    artist: notTheListenersLink,
    admin: notTheListenersLink,
  },
};
const previewLink: Pick<MatrixRow, 'expect' | 'why'> = {
  ...streamLink,
  why: {
    ...streamLink.why,
    guest:
      'a preview link is a capability bound to the listener’s live session (guests get links of their own)',
  },
};
const notTheListenersDownload =
  'a download link belongs to the account it was issued to: another signed-in account is refused';
const downloadLink: Pick<MatrixRow, 'expect' | 'why'> = {
  expect: streamLink.expect,
  why: {
    guest:
      'the link is a capability bound to the buyer’s live session: a download manager without cookies may use it',
    listenerWithoutGenres: notTheListenersDownload,
    otherArtist: notTheListenersDownload,
    artist: notTheListenersDownload,
    admin: notTheListenersDownload,
  },
};
/** Artist A's dashboard asked for by id: A's account and admins; another artist's account is refused. */
const dashboardOfA = (path: string, query: Record<string, string> = {}): MatrixCells => ({
  expect: managersOfA(200),
  request: (w) => ({ url: `${path}?${new URLSearchParams({ ...query, artistId: w.ids.artistA })}` }),
});
/** The same without an artist: an artist account reads its own artist, an admin the platform. */
const ownDashboard = (path: string, query: Record<string, string> = {}): MatrixCells => ({
  expect: { ...managersOfA(200), otherArtist: 200 },
  request: () => ({ url: `${path}?${new URLSearchParams(query)}` }),
});
/** Every filter of the transaction list at once (SPEC section 7). */
const TRANSACTION_FILTERS = {
  status: 'paid',
  gateway: 'sandbox',
  itemType: 'song',
  from: '2020-01-01',
  to: '2100-12-31',
  sort: '-amount',
};
/**
 * An artist account's rows are its own artist's only (by id or name), and artist A's account sees some (A sold
 * songs in the world); an admin's rows are not narrowed.
 */
function onlyOwnArtist(
  w: MatrixWorld,
  actor: Actor,
  artists: Array<string | null>,
  by: 'id' | 'name',
): string | undefined {
  if (actor !== 'artist' && actor !== 'otherArtist') return undefined;
  const own = by === 'id' ? w.users[actor].artistId : w.users[actor].artistName;
  const foreign = [...new Set(artists.filter((artist) => artist !== own))];
  if (foreign.length > 0)
    return `rows of other artists (${foreign.slice(0, 3).join(', ')}), expected ${own} only`;
  if (actor === 'artist' && artists.length === 0) return 'no rows, but artist A sold songs';
  return undefined;
}
const webhook = (gateway: 'stripe' | 'razorpay' | 'paypal'): MatrixRow => ({
  expect: each(200),
  why: { guest: 'the gateway calls it: the signature, not a session, is what is checked' },
  request: (w) => {
    const event = w.webhook(gateway);
    return {
      method: 'POST',
      url: `/api/payments/${gateway}/webhook`,
      payload: event.body,
      headers: event.headers,
    };
  },
});
const OWN_SONG =
  'artist A’s own song: its account plays it already, so it is not sold to it (409 ALREADY_OWNED)';
const buy = (gateway: string, status: number): MatrixRow => ({
  expect: { ...signedIn(status), artist: 409 },
  why: { artist: OWN_SONG },
  request: async (w) => ({
    method: 'POST',
    url: `/api/payments/${gateway}`,
    payload: { itemType: 'song', itemId: await w.freshSong(), amount: 199 },
  }),
});
const ALREADY_HAS_PROFILE =
  'an artist account manages one profile and already has it (409 ARTIST_PROFILE_EXISTS)';

export const AUTHORIZATION_MATRIX: Record<string, MatrixRow> = {
  'GET /api/health': { expect: each(200), request: () => ({ url: '/api/health' }) },

  // Accounts
  'POST /api/users/register': {
    expect: each(201),
    request: (w) => ({
      method: 'POST',
      url: '/api/users/register',
      payload: { name: 'New Account', email: w.newEmail(), password: 'correct horse battery' },
      remoteAddress: w.ip(),
    }),
  },
  'POST /api/users/login': {
    expect: each(200),
    request: (w) => ({
      method: 'POST',
      url: '/api/users/login',
      payload: { email: w.loginAccount.email, password: w.loginAccount.password },
      remoteAddress: w.ip(),
    }),
  },
  'GET /api/users/me': { expect: signedIn(200), request: () => ({ url: '/api/users/me' }) },
  'DELETE /api/users/me': {
    expect: signedIn(200),
    freshActor: true,
    request: () => ({ method: 'DELETE', url: '/api/users/me' }),
  },
  'POST /api/users/logout': {
    expect: signedIn(200),
    freshActor: true,
    request: () => ({ method: 'POST', url: '/api/users/logout' }),
  },
  'POST /api/users/forgot-password': {
    expect: each(200),
    request: (w) => ({
      method: 'POST',
      url: '/api/users/forgot-password',
      payload: { email: w.loginAccount.email },
      remoteAddress: w.ip(),
    }),
  },
  'POST /api/users/reset-password/{token}': {
    expect: each(200),
    why: { guest: 'the mailed link is the credential' },
    request: async (w) => ({
      method: 'POST',
      url: `/api/users/reset-password/${await w.resetToken()}`,
      payload: { password: 'a brand new password' },
    }),
  },
  'PUT /api/users/update-genres': {
    expect: signedIn(200),
    freshActor: true,
    request: (w) => ({ method: 'PUT', url: '/api/users/update-genres', payload: { genres: [w.ids.genre] } }),
  },
  'PATCH /api/users/me': {
    expect: signedIn(200),
    request: () => ({ method: 'PATCH', url: '/api/users/me', payload: { name: 'Matrix Name' } }),
  },
  'POST /api/users/me/email': {
    expect: signedIn(202),
    // The actors signed in moments ago and have no password: the fresh session proves them.
    request: (w) => ({ method: 'POST', url: '/api/users/me/email', payload: { email: w.newEmail() } }),
  },
  'POST /api/users/email/confirm': {
    expect: each(200),
    why: { guest: 'the mailed link is the credential' },
    request: async (w) => ({
      method: 'POST',
      url: '/api/users/email/confirm',
      payload: await w.emailChangeLink(),
      remoteAddress: w.ip(),
    }),
  },
  'PUT /api/users/me/password': {
    expect: signedIn(200),
    freshActor: true,
    request: () => ({
      method: 'PUT',
      url: '/api/users/me/password',
      payload: { newPassword: 'a new passphrase' },
    }),
  },
  'PUT /api/users/me/avatar': {
    expect: signedIn(200),
    request: (w) => ({
      method: 'PUT',
      url: '/api/users/me/avatar',
      payload: multipartForm({ image: { file: w.png, name: 'me.png', type: 'image/png' } }),
    }),
  },
  'DELETE /api/users/me/avatar': {
    expect: signedIn(200),
    request: () => ({ method: 'DELETE', url: '/api/users/me/avatar' }),
  },
  'PUT /api/users/likedsong/{songId}': {
    expect: signedIn(200),
    request: (w) => ({ method: 'PUT', url: `/api/users/likedsong/${w.ids.song}` }),
  },
  'GET /api/auth/providers': { expect: each(200), request: () => ({ url: '/api/auth/providers' }) },
  'GET /api/auth/{provider}': {
    expect: each(302),
    why: Object.fromEntries(
      ACTORS.map((actor) => [actor, 'social sign-in starts with a redirect to the provider']),
    ),
    request: () => ({ url: '/api/auth/google' }),
  },
  'GET /api/auth/{provider}/callback': {
    expect: each(302),
    why: Object.fromEntries(
      ACTORS.map((actor) => [
        actor,
        'the provider sends the browser back: a redirect into the app, signed in',
      ]),
    ),
    request: (w) => w.socialCallback(),
  },

  // Catalogue: public reads
  'GET /api/songs': { expect: each(200), request: () => ({ url: '/api/songs' }) },
  'GET /api/songs/liked': { expect: signedIn(200), request: () => ({ url: '/api/songs/liked' }) },
  'GET /api/home': { expect: signedIn(200), request: () => ({ url: '/api/home' }) },
  'GET /api/songs/matching-genre': {
    expect: signedIn(200),
    request: () => ({ url: '/api/songs/matching-genre' }),
  },
  'GET /api/songs/album/{id}': {
    expect: each(200),
    request: (w) => ({ url: `/api/songs/album/${w.ids.album}` }),
  },
  'GET /api/songs/artist/{id}': {
    expect: each(200),
    request: (w) => ({ url: `/api/songs/artist/${w.ids.artistA}` }),
  },
  'GET /api/songs/genre/{genre}': {
    expect: each(200),
    request: (w) => ({ url: `/api/songs/genre/${w.ids.genre}` }),
  },
  'GET /api/songs/{id}': {
    expect: {
      guest: 404,
      listenerWithoutGenres: 404,
      listener: 404,
      otherArtist: 404,
      artist: 200,
      admin: 200,
    },
    why: {
      guest: 'a song still processing exists only for its artist’s account and admins',
      listenerWithoutGenres: 'a song still processing exists only for its artist’s account and admins',
      listener: 'a song still processing exists only for its artist’s account and admins',
      otherArtist: 'a song still processing exists only for its artist’s account and admins',
    },
    request: (w) => ({ url: `/api/songs/${w.ids.processing}` }),
  },
  'GET /api/songs/{id}/status': {
    expect: managersOfA(200),
    request: (w) => ({ url: `/api/songs/${w.ids.processing}/status` }),
  },
  'GET /api/artists': { expect: each(200), request: () => ({ url: '/api/artists' }) },
  'GET /api/artists/all': { expect: each(200), request: () => ({ url: '/api/artists/all' }) },
  'GET /api/artists/{id}': { expect: each(200), request: (w) => ({ url: `/api/artists/${w.ids.artistA}` }) },
  'GET /api/discover/random-artist': {
    expect: each(200),
    request: () => ({ url: '/api/discover/random-artist' }),
  },
  'GET /api/albums': { expect: each(200), request: () => ({ url: '/api/albums' }) },
  'GET /api/albums/artist/{id}': {
    expect: each(200),
    request: (w) => ({ url: `/api/albums/artist/${w.ids.artistA}` }),
  },
  'GET /api/albums/{id}': { expect: each(200), request: (w) => ({ url: `/api/albums/${w.ids.album}` }) },
  'GET /api/genres': { expect: each(200), request: () => ({ url: '/api/genres' }) },
  'GET /api/search': { expect: each(200), request: () => ({ url: '/api/search?q=matrix' }) },
  'GET /api/media/{*}': { expect: each(200), request: (w) => ({ url: `/api/media/${w.ids.imageKey}` }) },

  // Catalogue: writes (artist A's account manages A; admins manage all)
  'POST /api/songs': {
    expect: managersOfA(201),
    request: (w) => ({
      method: 'POST',
      url: '/api/songs',
      payload: multipartForm({
        title: 'Uploaded',
        artist: w.ids.artistA,
        audio: { file: w.wav, name: 'tone.wav' },
      }),
    }),
  },
  'PUT /api/songs/{id}': {
    expect: managersOfA(200),
    request: (w) => ({ method: 'PUT', url: `/api/songs/${w.ids.song}`, payload: { title: 'Matrix Song' } }),
  },
  'GET /api/songs/{id}/buyers': {
    expect: managersOfA(200),
    request: (w) => ({ url: `/api/songs/${w.ids.song}/buyers` }),
  },
  'DELETE /api/songs/{id}': {
    expect: managersOfA(200),
    request: async (w) => ({ method: 'DELETE', url: `/api/songs/${await w.freshSong()}` }),
  },
  'POST /api/artists': {
    expect: { ...managersOfA(201), otherArtist: 409, artist: 409 },
    why: { otherArtist: ALREADY_HAS_PROFILE, artist: ALREADY_HAS_PROFILE },
    request: () => ({ method: 'POST', url: '/api/artists', payload: { name: 'Brand New Artist' } }),
  },
  'PUT /api/artists/{id}': {
    expect: managersOfA(200),
    request: (w) => ({ method: 'PUT', url: `/api/artists/${w.ids.artistA}`, payload: { bio: 'Edited' } }),
  },
  'DELETE /api/artists/{id}': {
    expect: managersOfA(200),
    // An account manages one profile: each cell is a new account; the artist's kind deletes its own profile, the
    // others another artist account's.
    freshActor: true,
    request: async (w, actor, user) => ({
      method: 'DELETE',
      url: `/api/artists/${actor === 'artist' ? user!.artistId! : (await w.fresh('artist')).artistId!}`,
    }),
  },
  'POST /api/albums': {
    expect: managersOfA(201),
    request: (w) => ({
      method: 'POST',
      url: '/api/albums',
      payload: { title: 'New Album', artist: w.ids.artistA },
    }),
  },
  'PUT /api/albums/{id}': {
    expect: managersOfA(200),
    request: (w) => ({
      method: 'PUT',
      url: `/api/albums/${w.ids.album}`,
      payload: { description: 'Edited' },
    }),
  },
  'GET /api/albums/{id}/buyers': {
    expect: managersOfA(200),
    request: (w) => ({ url: `/api/albums/${w.ids.album}/buyers` }),
  },
  'DELETE /api/albums/{id}': {
    expect: managersOfA(200),
    request: async (w) => ({ method: 'DELETE', url: `/api/albums/${await w.freshAlbum()}` }),
  },

  // Streaming (the song is artist A's, on a subscription; both listeners are subscribed to A)
  'GET /api/stream/song/{id}': {
    expect: { ...signedIn(200), otherArtist: 403 },
    request: (w) => ({ url: `/api/stream/song/${w.ids.song}` }),
  },
  'GET /api/stream/album/{id}': {
    expect: { ...signedIn(200), otherArtist: 403 },
    request: (w) => ({ url: `/api/stream/album/${w.ids.album}` }),
  },
  'GET /api/stream/hls/{songId}/index.m3u8': { ...streamLink, request: (w) => ({ url: w.stream.playlist }) },
  'GET /api/stream/hls/{songId}/key': { ...streamLink, request: (w) => ({ url: w.stream.key }) },
  'GET /api/stream/audio/{songId}': { ...streamLink, request: (w) => ({ url: w.stream.audio }) },
  'HEAD /api/stream/audio/{songId}': {
    ...streamLink,
    request: (w) => ({ method: 'HEAD', url: w.stream.audio }),
  },
  'GET /api/stream/hls/{songId}/{segment}': {
    expect: each(200),
    why: { guest: 'segments are encrypted and public (CDN-cacheable); the key is what is guarded' },
    request: (w) => ({ url: w.stream.segment }),
  },
  'HEAD /api/stream/hls/{songId}/{segment}': {
    expect: each(200),
    why: { guest: 'segments are encrypted and public (CDN-cacheable); the key is what is guarded' },
    request: (w) => ({ method: 'HEAD', url: w.stream.segment }),
  },
  // Previews: anybody may ask for one (guests by address, rate-limited); the preview's own token opens it.
  'GET /api/stream/song/{id}/preview': {
    expect: each(200),
    request: (w) => ({ url: `/api/stream/song/${w.ids.song}/preview` }),
  },
  'GET /api/stream/preview/{songId}/index.m3u8': {
    ...previewLink,
    request: (w) => ({ url: w.preview.playlist }),
  },
  'GET /api/stream/preview/{songId}/key': { ...previewLink, request: (w) => ({ url: w.preview.key }) },
  'GET /api/stream/preview/{songId}/audio': { ...previewLink, request: (w) => ({ url: w.preview.audio }) },
  'HEAD /api/stream/preview/{songId}/audio': {
    ...previewLink,
    request: (w) => ({ method: 'HEAD', url: w.preview.audio }),
  },
  'GET /api/stream/preview/{songId}/{segment}': {
    expect: each(200),
    why: { guest: 'preview segments are encrypted under the preview’s own key and public, like the song’s' },
    request: (w) => ({ url: w.preview.segment }),
  },
  'HEAD /api/stream/preview/{songId}/{segment}': {
    expect: each(200),
    why: { guest: 'preview segments are encrypted under the preview’s own key and public, like the song’s' },
    request: (w) => ({ method: 'HEAD', url: w.preview.segment }),
  },

  // Downloads (artist A lets subscribers download; both listeners are subscribed, artist B's account is not)
  'GET /api/downloads/{itemType}/{id}': {
    expect: { ...signedIn(200), otherArtist: 403 },
    request: (w) => ({ url: `/api/downloads/song/${w.ids.song}` }),
  },
  'POST /api/downloads/{itemType}/{id}': {
    expect: { ...signedIn(201), otherArtist: 403 },
    request: (w) => ({
      method: 'POST',
      url: `/api/downloads/song/${w.ids.song}`,
      payload: { format: 'mp3' },
    }),
  },
  'GET /api/downloads/file': { ...downloadLink, request: (w) => ({ url: w.downloadLink }) },
  'POST /api/stream/plays': {
    // Allowed: 201 counted, 200 not counted (no audio of the song fetched first; see stream-plays.test.ts).
    expect: { ...signedIn(200), listener: 201, otherArtist: 403 },
    why: { listener: "the key rows above served the listener the song's audio with its stream link" },
    request: (w) => ({
      method: 'POST',
      url: '/api/stream/plays',
      payload: { songId: w.ids.song, secondsListened: 30 },
    }),
  },
  'GET /api/users/me/recently-played': {
    expect: signedIn(200),
    request: () => ({ url: '/api/users/me/recently-played' }),
  },

  // Playlists (the target is the listener's)
  'GET /api/playlists': { expect: signedIn(200), request: () => ({ url: '/api/playlists' }) },
  'POST /api/playlists': {
    expect: signedIn(201),
    request: () => ({ method: 'POST', url: '/api/playlists', payload: { name: 'Mine' } }),
  },
  'GET /api/playlists/{id}': {
    expect: listenersOwn(200),
    why: notRevealed,
    request: async (w) => ({ url: `/api/playlists/${await w.playlist()}` }),
  },
  'PUT /api/playlists/{id}': {
    expect: listenersOwn(200),
    why: notRevealed,
    request: async (w) => ({
      method: 'PUT',
      url: `/api/playlists/${await w.playlist()}`,
      payload: { name: 'Renamed' },
    }),
  },
  'DELETE /api/playlists/{id}': {
    expect: listenersOwn(200),
    why: notRevealed,
    request: async (w) => ({ method: 'DELETE', url: `/api/playlists/${await w.playlist()}` }),
  },
  'POST /api/playlists/{id}/songs': {
    expect: listenersOwn(201),
    why: notRevealed,
    request: async (w) => ({
      method: 'POST',
      url: `/api/playlists/${await w.playlist()}/songs`,
      payload: { songId: w.ids.song },
    }),
  },
  'DELETE /api/playlists/{id}/songs/{songId}': {
    expect: listenersOwn(200),
    why: notRevealed,
    request: async (w) => ({
      method: 'DELETE',
      url: `/api/playlists/${await w.playlist([w.ids.song])}/songs/${w.ids.song}`,
    }),
  },
  'PUT /api/playlists/{id}/order': {
    expect: listenersOwn(200),
    why: notRevealed,
    request: async (w) => ({
      method: 'PUT',
      url: `/api/playlists/${await w.playlist([w.ids.song])}/order`,
      payload: { songIds: [w.ids.song] },
    }),
  },

  // Dashboards
  'GET /api/user/dashboard/purchases': {
    expect: signedIn(200),
    request: () => ({ url: '/api/user/dashboard/purchases' }),
  },
  'GET /api/user/dashboard/subscriptions': {
    expect: signedIn(200),
    request: () => ({ url: '/api/user/dashboard/subscriptions' }),
  },
  'GET /api/admin/dashboard/transactions': {
    ...dashboardOfA('/api/admin/dashboard/transactions', TRANSACTION_FILTERS),
    variants: {
      'no artistId: the account’s own artist': {
        ...ownDashboard('/api/admin/dashboard/transactions'),
        check: (response, w, actor) =>
          onlyOwnArtist(
            w,
            actor,
            response
              .json<{ transactions: Array<{ artist: { _id: string } | null }> }>()
              .transactions.map((t) => t.artist?._id ?? null),
            'id',
          ),
      },
    },
  },
  'GET /api/admin/dashboard/transactions.csv': {
    ...dashboardOfA('/api/admin/dashboard/transactions.csv', TRANSACTION_FILTERS),
    variants: {
      'no artistId: the account’s own artist': {
        ...ownDashboard('/api/admin/dashboard/transactions.csv'),
        // Column 5 is the artist's name; the world's names and titles hold no comma or quote.
        check: (response, w, actor) =>
          onlyOwnArtist(
            w,
            actor,
            response.body
              .trimEnd()
              .split('\n')
              .slice(1)
              .map((line) => line.split(',')[4] ?? null),
            'name',
          ),
      },
    },
  },
  'GET /api/admin/dashboard/overview': {
    ...dashboardOfA('/api/admin/dashboard/overview', { from: '2020-01-01', to: '2020-12-31' }),
    variants: { 'no artistId: the account’s own artist': ownDashboard('/api/admin/dashboard/overview') },
  },
  'GET /api/admin/dashboard/revenue': {
    ...dashboardOfA('/api/admin/dashboard/revenue', { bucket: 'week' }),
    variants: { 'no artistId: the account’s own artist': ownDashboard('/api/admin/dashboard/revenue') },
  },
  'GET /api/admin/dashboard/subscribers': {
    ...dashboardOfA('/api/admin/dashboard/subscribers', { bucket: 'month' }),
    variants: { 'no artistId: the account’s own artist': ownDashboard('/api/admin/dashboard/subscribers') },
  },
  'GET /api/admin/dashboard/plays': {
    ...dashboardOfA('/api/admin/dashboard/plays'),
    variants: { 'no artistId: the account’s own artist': ownDashboard('/api/admin/dashboard/plays') },
  },
  'GET /api/admin/dashboard/top': {
    ...dashboardOfA('/api/admin/dashboard/top', { type: 'song', by: 'plays' }),
    variants: {
      'no artistId: the account’s own albums': ownDashboard('/api/admin/dashboard/top', { type: 'album' }),
      'type=artist: platform-wide, admins only': {
        expect: { ...signedIn(403), admin: 200 },
        request: () => ({ url: '/api/admin/dashboard/top?type=artist' }),
      },
    },
  },
  'GET /api/admin/dashboard/subscribers/{artistId}': {
    expect: managersOfA(200),
    request: (w) => ({ url: `/api/admin/dashboard/subscribers/${w.ids.artistA}?page=1&limit=5` }),
  },
  'GET /api/admin/dashboard/purchased-songs/{artistId}': {
    expect: managersOfA(200),
    request: (w) => ({ url: `/api/admin/dashboard/purchased-songs/${w.ids.artistA}` }),
  },
  'GET /api/admin/dashboard/purchased-albums/{artistId}': {
    expect: managersOfA(200),
    request: (w) => ({ url: `/api/admin/dashboard/purchased-albums/${w.ids.artistA}` }),
  },
  'GET /api/admin/dashboard/subscriber-count/{artistId}': {
    expect: managersOfA(200),
    request: (w) => ({ url: `/api/admin/dashboard/subscriber-count/${w.ids.artistA}` }),
  },
  'GET /api/admin/dashboard/revenue-summary/{artistId}': {
    expect: managersOfA(200),
    request: (w) => ({ url: `/api/admin/dashboard/revenue-summary/${w.ids.artistA}` }),
  },

  // Payments (every buyer buys a new song of artist A's; owned targets are the listener's)
  'GET /api/payments/gateways': { expect: each(200), request: () => ({ url: '/api/payments/gateways' }) },
  'GET /api/payments/history': { expect: signedIn(200), request: () => ({ url: '/api/payments/history' }) },
  'GET /api/payments/orders/{id}': {
    expect: listenersOwn(200),
    why: notRevealed,
    request: (w) => ({ url: `/api/payments/orders/${w.listenerOrder}` }),
  },
  'POST /api/admin/orders/{id}/refund': {
    expect: { ...signedIn(403), admin: 200 },
    request: async (w) => ({
      method: 'POST',
      url: `/api/admin/orders/${await w.sandboxOrder(true)}/refund`,
      payload: { reason: 'matrix' },
    }),
  },
  'GET /api/admin/payments/health': {
    expect: { ...signedIn(403), admin: 200 },
    request: () => ({ url: '/api/admin/payments/health' }),
  },
  'POST /api/admin/payments/reconcile': {
    expect: { ...signedIn(403), admin: 200 },
    request: () => ({ method: 'POST', url: '/api/admin/payments/reconcile?gateway=stripe' }),
  },
  'POST /api/admin/payments/issues/{id}/resolve': {
    expect: { ...signedIn(403), admin: 200 },
    request: async (w) => ({
      method: 'POST',
      url: `/api/admin/payments/issues/${await w.paymentIssue()}/resolve`,
      payload: { resolution: 'matched by hand' },
    }),
  },
  'POST /api/payments/sandbox/create-order': { ...buy('sandbox/create-order', 201) },
  'GET /api/payments/sandbox/orders/{id}': {
    expect: listenersOwn(200),
    why: notRevealed,
    request: (w) => ({ url: `/api/payments/sandbox/orders/${w.listenerOrder}` }),
  },
  'POST /api/payments/sandbox/orders/{id}/confirm': {
    expect: listenersOwn(200),
    why: notRevealed,
    request: async (w) => ({
      method: 'POST',
      url: `/api/payments/sandbox/orders/${await w.sandboxOrder(false)}/confirm`,
      payload: { outcome: 'pay' },
    }),
  },
  'POST /api/subscriptions/artist/{id}': {
    expect: signedIn(201),
    request: async (w) => ({
      method: 'POST',
      url: `/api/subscriptions/artist/${await w.freshArtist()}`,
      payload: { gateway: 'sandbox', cycle: '1m' },
    }),
  },
  'DELETE /api/subscriptions/artist/{id}': {
    expect: signedIn(200),
    request: async (w, _actor, user) => {
      const artistId = await w.freshArtist();
      if (user) await w.subscribe(user.id, artistId);
      return { method: 'DELETE', url: `/api/subscriptions/artist/${artistId}` };
    },
  },
  'POST /api/payments/stripe/create-payment': buy('stripe/create-payment', 200),
  'POST /api/subscriptions/setup-intent': {
    expect: signedIn(200),
    request: () => ({ method: 'POST', url: '/api/subscriptions/setup-intent' }),
  },
  'POST /api/payments/stripe/webhook': webhook('stripe'),
  'POST /api/payments/razorpay/create-order': buy('razorpay/create-order', 200),
  'POST /api/payments/razorpay/verify': {
    expect: listenersOwn(200),
    why: notRevealed,
    request: async (w) => ({
      method: 'POST',
      url: '/api/payments/razorpay/verify',
      payload: await w.razorpayPaid(),
    }),
  },
  'POST /api/payments/razorpay/webhook': webhook('razorpay'),
  'POST /api/payments/paypal/create-order': buy('paypal/create-order', 200),
  'POST /api/payments/paypal/capture-order': {
    expect: listenersOwn(200),
    why: notRevealed,
    request: async (w) => ({
      method: 'POST',
      url: '/api/payments/paypal/capture-order',
      payload: { orderId: await w.paypalApprovedOrder() },
    }),
  },
  'POST /api/payments/paypal/confirm-subscription': {
    expect: listenersOwn(200),
    why: notRevealed,
    request: async (w) => ({
      method: 'POST',
      url: '/api/payments/paypal/confirm-subscription',
      payload: { subscriptionId: await w.paypalApprovedSubscription() },
    }),
  },
  'POST /api/payments/paypal/webhook': webhook('paypal'),
};

/** Every request shape of the table as [name, cells, route]: a row's main cells, then its variants. */
export function cellsOf(matrix: Record<string, MatrixRow>): Array<[string, MatrixCells, string]> {
  return Object.entries(matrix).flatMap(([route, { variants, ...main }]) => [
    [route, main, route] as [string, MatrixCells, string],
    ...Object.entries(variants ?? {}).map(
      ([label, cells]) => [`${route} (${label})`, cells, route] as [string, MatrixCells, string],
    ),
  ]);
}

/** What to paste into the table for a route that has no row yet. */
export function rowTemplate(route: string): string {
  return (
    `  '${route}': {\n` +
    `    expect: { guest: ?, listenerWithoutGenres: ?, listener: ?, otherArtist: ?, artist: ?, admin: ? },\n` +
    `    request: (world, actor, user) => ({ method: '${route.split(' ')[0]}', url: '${route
      .split(' ')[1]!
      .replace(/\{[^}]+\}/g, '<id>')}' }),\n` +
    `  },`
  );
}
