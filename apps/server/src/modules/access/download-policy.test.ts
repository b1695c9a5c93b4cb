import { describe, expect, it } from 'vitest';
import { NO_ENTITLEMENTS, type Entitlements, type Viewer } from './access-policy';
import { DOWNLOAD_SONG_DENIED, decideSongDownload, type SongDownloadFacts } from './download-policy';

const NOW = new Date('2025-06-01T12:00:00Z');
const LISTENER: Viewer = { id: '00000000-0000-4000-8000-000000000002', role: 'user' };
const OWNER: Viewer = { id: '00000000-0000-4000-8000-000000000001', role: 'artist' };
const ADMIN: Viewer = { id: '00000000-0000-4000-8000-000000000004', role: 'admin' };

const song = (overrides: Partial<SongDownloadFacts> = {}): SongDownloadFacts => ({
  id: 'song-1',
  accessType: 'subscription',
  artistId: 'artist-1',
  artistName: 'Nina Waves',
  artistOwnerUserId: OWNER.id,
  album: { id: 'album-1', title: 'Tide & Time', isPremium: false },
  artistAllowsSubscriberDownloads: false,
  ...overrides,
});

const entitled = (overrides: Partial<Entitlements>): Entitlements => ({ ...NO_ENTITLEMENTS, ...overrides });
const subscribed = entitled({
  subscriptionPeriodEnds: new Map([['artist-1', new Date(NOW.getTime() + 86_400_000)]]),
});

describe('decideSongDownload', () => {
  it('lets buyers of the song or its album, the artist and admins download', () => {
    expect(
      decideSongDownload(LISTENER, song(), entitled({ purchasedSongIds: new Set(['song-1']) }), NOW),
    ).toMatchObject({ allowed: true, via: 'song_purchase' });
    expect(
      decideSongDownload(LISTENER, song(), entitled({ purchasedAlbumIds: new Set(['album-1']) }), NOW),
    ).toMatchObject({ allowed: true, via: 'album_purchase' });
    expect(decideSongDownload(OWNER, song(), NO_ENTITLEMENTS, NOW)).toMatchObject({ allowed: true });
    expect(decideSongDownload(ADMIN, song(), NO_ENTITLEMENTS, NOW)).toMatchObject({ allowed: true });
  });

  it('lets a subscriber download only when the artist allows it', () => {
    expect(decideSongDownload(LISTENER, song(), subscribed, NOW)).toEqual({
      allowed: false,
      message: DOWNLOAD_SONG_DENIED,
    });
    expect(
      decideSongDownload(LISTENER, song({ artistAllowsSubscriberDownloads: true }), subscribed, NOW),
    ).toMatchObject({ allowed: true, via: 'subscription' });
  });

  it('refuses guests, listeners without a purchase and ended subscriptions', () => {
    const ended = entitled({ subscriptionPeriodEnds: new Map([['artist-1', new Date(NOW.getTime() - 1)]]) });
    const allows = song({ artistAllowsSubscriberDownloads: true });
    expect(decideSongDownload(null, allows, NO_ENTITLEMENTS, NOW).allowed).toBe(false);
    expect(decideSongDownload(LISTENER, allows, NO_ENTITLEMENTS, NOW).allowed).toBe(false);
    expect(decideSongDownload(LISTENER, allows, ended, NOW).allowed).toBe(false);
  });

  it('names the album when a premium album must be bought', () => {
    const premium = song({ album: { id: 'album-1', title: 'Tide & Time', isPremium: true } });
    expect(decideSongDownload(LISTENER, premium, subscribed, NOW)).toEqual({
      allowed: false,
      message: 'Purchase the album "Tide & Time" to download this song.',
    });
  });

  it('gives no download for a free play: a song free to stream is downloaded by buying it', () => {
    const free = song({ freeToStream: true, artistAllowsSubscriberDownloads: true });
    expect(decideSongDownload(LISTENER, free, NO_ENTITLEMENTS, NOW)).toEqual({
      allowed: false,
      message: DOWNLOAD_SONG_DENIED,
    });
    expect(
      decideSongDownload(LISTENER, free, entitled({ purchasedSongIds: new Set(['song-1']) }), NOW),
    ).toMatchObject({ allowed: true, via: 'song_purchase' });
    // A subscriber still downloads where the artist allows it: the subscription, not the free play, decides.
    expect(decideSongDownload(LISTENER, free, subscribed, NOW)).toMatchObject({
      allowed: true,
      via: 'subscription',
    });
  });
});
