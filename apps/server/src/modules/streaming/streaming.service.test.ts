import { beforeEach, describe, expect, it } from 'vitest';
import type { AppError } from '../../platform/errors';
import { NO_ENTITLEMENTS } from '../access';
import type { StreamMedia } from './stream-media';
import { StreamTokenService } from './stream-token.service';
import type { SongAccessRow, StreamingRepository } from './streaming.repository';
import {
  ACCESS_CACHE_TTL_MS,
  AUDIO_FETCH_WRITE_EVERY_MS,
  StreamingService,
  type Requester,
} from './streaming.service';

const USER = '3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';
const OTHER_USER = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';
const SONG = '11111111-2222-4333-8444-555555555555';
const SESSION = 'c0ffee00-1234-4abc-9def-0123456789ab';
const SECOND_SESSION = 'c0ffee00-1234-4abc-9def-0123456789ac';
const OTHER_SESSION = 'decade00-1234-4abc-9def-0123456789ab';
const HOLDER = { userId: USER, sessionId: SESSION };
const ARTIST = 'artist-1';
const KEY = Buffer.alloc(16, 7);

/** A fake repository whose one song the tests change between calls; it counts the queries it answers. */
class FakeRepository {
  queries = 0;
  paidThrough: Date | null = null;
  songBought = false;
  /** Audio fetches written (what makes the next play countable), as [user, song, at]. */
  fetches: Array<[string, string, number]> = [];

  async recordAudioFetch(userId: string, songId: string, at: Date): Promise<void> {
    this.fetches.push([userId, songId, at.getTime()]);
  }

  async findSongAccess(songId: string, userId: string): Promise<SongAccessRow | null> {
    this.queries += 1;
    if (songId !== SONG) return null;
    return {
      facts: {
        id: SONG,
        accessType: 'subscription',
        artistId: ARTIST,
        artistName: 'Nina Waves',
        artistOwnerUserId: null,
        album: null,
      },
      media: { status: 'ready', failureReason: null, hlsPrefix: `songs/${SONG}/v1`, durationSec: 120 },
      viewerRole: userId === USER ? 'user' : null,
      entitlements: {
        ...NO_ENTITLEMENTS,
        purchasedSongIds: new Set(this.songBought ? [SONG] : []),
        subscriptionPeriodEnds: new Map(this.paidThrough ? [[ARTIST, this.paidThrough]] : []),
      },
    };
  }
}

const fakeMedia = {
  readyPrefix: async () => `songs/${SONG}/v1`,
  key: async () => KEY,
  firstSegmentUrl: (songId: string) => `/api/stream/hls/${songId}/seg_0000.ts`,
} as unknown as StreamMedia;

let now: number;
let repository: FakeRepository;
let service: StreamingService;
const tokens = new StreamTokenService('unit-test-secret-key-that-is-long-enough-012345');
const anonymous: Requester = async () => null;
const viewer = { id: USER, role: 'user' as const, sessionId: SESSION };
/** Sessions the fake database holds as live, and how often the service asked. */
let liveSessions: Set<string>;
let sessionChecks: number;

async function refusal(
  promise: Promise<unknown>,
): Promise<{ status: number; code: string; message: string }> {
  const error = (await promise.then(
    () => null,
    (e: unknown) => e,
  )) as AppError | null;
  if (!error) throw new Error('expected a refusal');
  return { status: error.status, code: error.code, message: error.message };
}

beforeEach(() => {
  now = Date.parse('2025-06-01T12:00:00Z');
  repository = new FakeRepository();
  repository.paidThrough = new Date(now + 60 * 60 * 1000);
  liveSessions = new Set([SESSION, SECOND_SESSION, OTHER_SESSION]);
  sessionChecks = 0;
  service = new StreamingService(repository as unknown as StreamingRepository, tokens, fakeMedia, {
    clock: () => new Date(now),
    sessionIsLive: async (sessionId) => {
      sessionChecks += 1;
      return liveSessions.has(sessionId);
    },
  });
});

describe('StreamingService key access', () => {
  it('answers the key that follows a stream URL without another query', async () => {
    const { url } = await service.streamSong(viewer, SONG);
    const token = decodeURIComponent(url.split('token=')[1]!);
    expect(repository.queries).toBe(1);
    expect(await service.key(SONG, token, anonymous)).toBe(KEY);
    expect(await service.key(SONG, token, anonymous)).toBe(KEY);
    expect(repository.queries).toBe(1);
  });

  it('still ends a paid period to the second, cached or not', async () => {
    repository.paidThrough = new Date(now + 1000);
    const token = tokens.issue(HOLDER, SONG, now);
    await service.key(SONG, token, anonymous);
    now += 1000;
    expect(await refusal(service.key(SONG, token, anonymous))).toEqual({
      status: 403,
      code: 'ACCESS_DENIED',
      message: 'Subscribe to Nina Waves to play this song.',
    });
  });

  it('sees a revocation once the cache entry is older than its TTL', async () => {
    const token = tokens.issue(HOLDER, SONG, now);
    await service.key(SONG, token, anonymous);
    repository.paidThrough = null; // refunded
    now += ACCESS_CACHE_TTL_MS - 1;
    expect(await service.key(SONG, token, anonymous)).toBe(KEY);
    now += 1;
    expect((await refusal(service.key(SONG, token, anonymous))).code).toBe('ACCESS_DENIED');
  });

  it('never caches a refusal: a purchase plays at the next request', async () => {
    repository.paidThrough = null;
    const token = tokens.issue(HOLDER, SONG, now);
    expect((await refusal(service.key(SONG, token, anonymous))).status).toBe(403);
    repository.songBought = true;
    expect(await service.key(SONG, token, anonymous)).toBe(KEY);
  });

  it('refuses a token presented by another signed-in account before any query', async () => {
    const token = tokens.issue(HOLDER, SONG, now);
    const someoneElse: Requester = async () => ({ userId: OTHER_USER, sessionId: OTHER_SESSION });
    expect(await refusal(service.key(SONG, token, someoneElse))).toEqual({
      status: 403,
      code: 'INVALID_STREAM_TOKEN',
      message: 'This stream link belongs to another account.',
    });
    expect(await service.key(SONG, token, async () => HOLDER)).toBe(KEY);
    expect(repository.queries).toBe(1);
  });

  it('refuses an expired token and a token of an account that no longer exists', async () => {
    const expired = tokens.issue(HOLDER, SONG, now - 7 * 60 * 60 * 1000);
    expect((await refusal(service.key(SONG, expired, anonymous))).code).toBe('INVALID_STREAM_TOKEN');
    const orphan = tokens.issue({ userId: OTHER_USER, sessionId: OTHER_SESSION }, SONG, now);
    expect((await refusal(service.key(SONG, orphan, anonymous))).code).toBe('INVALID_STREAM_TOKEN');
  });
});

describe('StreamingService: a stream token lives only as long as its session', () => {
  it('refuses the token once the session that minted it has ended, on key and playlist alike', async () => {
    const { url } = await service.streamSong(viewer, SONG);
    const token = decodeURIComponent(url.split('token=')[1]!);
    expect(await service.key(SONG, token, anonymous)).toBe(KEY);
    liveSessions.delete(SESSION); // logged out
    const ended = {
      status: 403,
      code: 'INVALID_STREAM_TOKEN',
      message: 'This stream link is invalid or has expired.',
    };
    expect(await refusal(service.key(SONG, token, anonymous))).toEqual(ended);
    expect(await refusal(service.playlist(SONG, token, anonymous))).toEqual(ended);
    // The same user's other, still live session does not revive it.
    const otherDevice: Requester = async () => ({ userId: USER, sessionId: SECOND_SESSION });
    expect(await refusal(service.key(SONG, token, otherDevice))).toEqual(ended);
  });

  it("needs no session check when the request carries the token's own session (already confirmed)", async () => {
    const token = tokens.issue(HOLDER, SONG, now);
    expect(await service.key(SONG, token, async () => HOLDER)).toBe(KEY);
    expect(sessionChecks).toBe(0);
    expect(await service.key(SONG, token, anonymous)).toBe(KEY);
    expect(sessionChecks).toBe(1);
  });
});

describe('StreamingService: audio served makes a play countable', () => {
  it('writes the fetch once per AUDIO_FETCH_WRITE_EVERY_MS per user and song, however often the key is asked', async () => {
    const { url } = await service.streamSong(viewer, SONG);
    const token = new URL(url, 'http://x').searchParams.get('token')!;
    for (let i = 0; i < 50; i++) await service.key(SONG, token, anonymous);
    expect(repository.fetches).toEqual([[USER, SONG, now]]);
    now += AUDIO_FETCH_WRITE_EVERY_MS + 1;
    await service.key(SONG, token, anonymous);
    expect(repository.fetches).toHaveLength(2);
  });

  it('writes nothing for a refused key', async () => {
    const { url } = await service.streamSong(viewer, SONG);
    const token = new URL(url, 'http://x').searchParams.get('token')!;
    repository.paidThrough = null;
    now += ACCESS_CACHE_TTL_MS + 1;
    await refusal(service.key(SONG, token, anonymous));
    expect(repository.fetches).toEqual([]);
  });
});
