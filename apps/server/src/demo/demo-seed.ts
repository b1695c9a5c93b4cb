import { randomUUID } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { albums, artists, genres, songs, userPreferredGenres } from '../db/schema';
import type { AppServices } from '../modules';
import {
  generateCoverArt,
  generatePortraitArt,
  locateFfmpeg,
  synthesizeSong,
  type FfmpegTools,
} from '../modules/media';
import { storeCoverImage, toSearchText, toSlug } from '../modules/catalog';
import { TRANSCODE_JOB, TRANSCODE_MAX_ATTEMPTS } from '../modules/renditions';
import {
  demoAccountCredentials,
  insertDemoAccounts,
  reportCreatedDemoAccounts,
  reportExistingDemoAccounts,
  type SeedLog,
} from './demo-accounts';
import { demoAccounts, demoArtists, demoGenres, type DemoArtist } from './demo-data';
import { seedDemoSales } from './demo-sales';

/** Runs `worker` over `items` with at most `limit` in flight. */
async function inPool<T>(items: T[], limit: number, worker: (item: T, index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        await worker(items[index]!, index);
      }
    }),
  );
}

/** A stable pseudo-random duration in [30, 120] s per song, skewed short so the seed stays fast. */
const demoDuration = (index: number) => 30 + ((index * 37) % 7) * 8 + (index % 3) * 5;

interface SeedInput {
  config: Config;
  database: Database;
  services: AppServices;
  log: SeedLog;
  /** The catalogue to seed: the demo's own by default (tests seed a smaller one). */
  artists?: DemoArtist[];
}

/** Whether this start seeds the demo catalogue: SEED_DEMO is on and the database has no account yet. */
export async function demoSeedNeeded(config: Config, database: Database): Promise<boolean> {
  if (!config.seedDemo) return false;
  const [existing] = await database.query<{ count: number }>(sql`select count(*)::int as count from users`);
  return (existing?.count ?? 0) === 0;
}

/**
 * The start-up step: with SEED_DEMO (default on outside production, off in production) an empty database gets the
 * demo catalogue; otherwise the log says plainly that no demo accounts were created. Progress goes to
 * `services.preparation` (the preparing page, /api/health and the console line), which is ready when this ends.
 */
export async function seedDemoOnStartup(input: SeedInput): Promise<void> {
  const { config, database, log } = input;
  if (config.seedDemo) {
    await seedDemoCatalogueIfEmpty(input);
    input.services.preparation.markReady();
    return;
  }
  log.info(
    `demo seed is off (SEED_DEMO${config.isProduction ? ' is off by default in production' : '=false'}): ` +
      'no demo catalogue was seeded and no demo accounts were created',
  );
  await reportExistingDemoAccounts(config, database.db, log);
}

export async function seedDemoCatalogueIfEmpty(input: SeedInput): Promise<void> {
  const { config, database, services, log } = input;
  if (!(await demoSeedNeeded(config, database))) {
    await reportExistingDemoAccounts(config, database.db, log);
    return;
  }
  const progress = services.preparation;

  const started = Date.now();
  const credentials = demoAccountCredentials(config);
  log.info('empty database: seeding the demo catalogue (synthesising and transcoding audio)');
  const tools = await locateFfmpeg(config.ffmpegPath);
  const workDir = path.join(config.dataDir, 'tmp', `seed-${randomUUID()}`);
  await mkdir(workDir, { recursive: true });

  try {
    const genreIds = new Map(demoGenres.map((name) => [name, randomUUID()]));
    const plan = buildPlan(input.artists ?? demoArtists);
    progress.update({ step: 'artwork', songsTotal: plan.songs.length });

    // Covers first (sharp, fast), then audio (ffmpeg) two at a time: the machine has two cores.
    // Artist pictures are shown in circles: centred art without the name, which a circle would cut.
    await inPool([...plan.artists, ...plan.albums], 2, async (item) => {
      const file = path.join(workDir, `${item.id}.png`);
      if (item.kind === 'artist') {
        await generatePortraitArt({ seed: item.seed, outFile: file });
      } else {
        await generateCoverArt({
          seed: item.seed,
          title: item.coverTitle,
          subtitle: item.coverSubtitle,
          outFile: file,
        });
      }
      item.imageKey = await storeCoverImage(services.mediaStore, file, item.kind);
    });
    progress.update({ step: 'audio' });
    let synthesised = 0;
    await inPool(plan.songs, 2, async (song) => {
      await synthesize(tools, song.seed, song.durationSec, path.join(workDir, `${song.id}.wav`));
      song.sourceKey = `uploads/${song.id}/source.wav`;
      await services.mediaStore.put(song.sourceKey, path.join(workDir, `${song.id}.wav`));
      progress.update({ songsSynthesised: ++synthesised });
    });

    await database.db.transaction(async (tx) => {
      await tx
        .insert(genres)
        .values(demoGenres.map((name) => ({ id: genreIds.get(name)!, name, slug: toSlug(name) })));
      const accountIds = await insertDemoAccounts(tx, credentials);
      const idOf = (email: string) => accountIds.get(email)!;
      // The listener and the artist land on /home; the admin starts without genres, like a new account.
      await tx.insert(userPreferredGenres).values(
        [demoAccounts.listener, demoAccounts.artist].flatMap((account) =>
          account.preferredGenres.map((name) => ({
            userId: idOf(account.email),
            genreId: genreIds.get(name as (typeof demoGenres)[number])!,
          })),
        ),
      );
      await tx.insert(artists).values(
        plan.artists.map((a) => ({
          id: a.id,
          name: a.name,
          bio: a.bio,
          image: a.imageKey,
          genreId: genreIds.get(a.genre)!,
          ownerUserId: a.ownedByDemoArtist ? idOf(demoAccounts.artist.email) : null,
          subscriptionPrice: a.subscriptionPrice,
          currency: config.currency,
          searchText: toSearchText(a.name),
        })),
      );
      await tx.insert(albums).values(
        plan.albums.map((a) => ({
          id: a.id,
          artistId: a.artistId,
          title: a.title,
          description: a.description,
          cover: a.imageKey,
          genreId: genreIds.get(a.genre)!,
          price: a.price,
          currency: config.currency,
          isPremium: a.isPremium,
          releaseDate: a.releaseDate,
          // Added when released: "newest first" is a stable order, not the tie-break of one insert's random ids.
          createdAt: a.releaseDate,
          searchText: toSearchText(`${a.title} ${a.artistName}`),
        })),
      );
      await tx.insert(songs).values(
        plan.songs.map((s) => ({
          id: s.id,
          artistId: s.artistId,
          albumId: s.albumId,
          trackNumber: s.trackNumber,
          title: s.title,
          singer: s.artistName,
          genreId: genreIds.get(s.genre)!,
          accessType: s.accessType,
          freeToStream: s.freeToStream,
          price: s.price,
          currency: config.currency,
          coverImage: s.coverKey(),
          status: 'processing' as const,
          sourceKey: s.sourceKey,
          searchText: toSearchText(`${s.title} ${s.artistName}`),
          createdAt: s.createdAt,
        })),
      );
      // The same durable job an upload gets, queued through the same queue: the demo goes through the real pipeline.
      for (const s of plan.songs) {
        await services.jobs.enqueue(
          TRANSCODE_JOB,
          { songId: s.id, sourceKey: s.sourceKey, encoder: 'fast' },
          { db: tx, maxAttempts: TRANSCODE_MAX_ATTEMPTS },
        );
      }
    });

    // The songs' streams are what the demo needs at once; their previews (queued by each transcode) are made by the
    // running queue after the server listens (409 PREVIEW_PREPARING until then), unless SEED_DEMO_WAIT=all.
    const types = config.seedDemoWait === 'all' ? undefined : [TRANSCODE_JOB];
    const countReady = async () => {
      const [row] = await database.query<{ count: number }>(
        sql`select count(*)::int as count from songs where status = 'ready'`,
      );
      return row?.count ?? 0;
    };
    progress.update({ step: 'transcoding' });
    const afterEachJob = async () => {
      const songsReady = await countReady();
      progress.update({
        songsReady,
        // SEED_DEMO_WAIT=all: once every song plays, what is left are their previews.
        ...(songsReady === plan.songs.length && types === undefined ? { step: 'previews' as const } : {}),
      });
    };
    await Promise.all([services.jobs.drain(types, afterEachJob), services.jobs.drain(types, afterEachJob)]);
    const ready = { count: await countReady() };
    progress.update({ songsReady: ready.count });
    log.info(
      {
        songs: plan.songs.length,
        ready: ready.count,
        seconds: Math.round((Date.now() - started) / 100) / 10,
      },
      'demo catalogue seeded',
    );
    // Past sales only outside production: a production database is never given invented revenue.
    if (!config.isProduction) {
      progress.update({ step: 'sales' });
      const salesStarted = Date.now();
      const sales = await seedDemoSales({ config, database, services });
      log.info(
        { ...sales, seconds: Math.round((Date.now() - salesStarted) / 100) / 10 },
        'demo sales history seeded (four months, demo gateway)',
      );
    }
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  await reportCreatedDemoAccounts(credentials, log, config.dataDir);
}

async function synthesize(tools: FfmpegTools, seed: number, durationSec: number, outFile: string) {
  await synthesizeSong(tools, { seed, durationSec, outFile });
}

function buildPlan(catalogue: DemoArtist[]) {
  const now = Date.now();
  type Item = {
    kind: 'artist' | 'album';
    id: string;
    seed: number;
    coverTitle: string;
    coverSubtitle?: string;
    imageKey: string | null;
  };
  const artistRows: Array<Item & DemoArtist> = [];
  const albumRows: Array<
    Item &
      DemoArtist['albums'][number] & {
        artistId: string;
        artistName: string;
        releaseDate: Date;
      }
  > = [];
  const songRows: Array<{
    id: string;
    seed: number;
    durationSec: number;
    artistId: string;
    artistName: string;
    albumId: string;
    trackNumber: number;
    title: string;
    genre: (typeof demoGenres)[number];
    accessType: 'subscription' | 'purchase-only';
    freeToStream: boolean;
    price: number;
    sourceKey: string | null;
    createdAt: Date;
    coverKey: () => string | null;
  }> = [];
  let songIndex = 0;
  catalogue.forEach((artist, artistIndex) => {
    const artistRow = {
      ...artist,
      kind: 'artist' as const,
      id: randomUUID(),
      seed: 1000 + artistIndex,
      coverTitle: artist.name,
      imageKey: null,
    };
    artistRows.push(artistRow);
    artist.albums.forEach((album, albumIndex) => {
      const albumRow = {
        ...album,
        kind: 'album' as const,
        id: randomUUID(),
        seed: 2000 + artistIndex * 10 + albumIndex,
        coverTitle: album.title,
        coverSubtitle: artist.name,
        imageKey: null as string | null,
        artistId: artistRow.id,
        artistName: artist.name,
        releaseDate: new Date(now - (artistIndex * 3 + albumIndex) * 86_400_000 * 30),
      };
      albumRows.push(albumRow);
      album.songs.forEach((song, trackIndex) => {
        const index = songIndex++;
        songRows.push({
          id: randomUUID(),
          seed: index + 1,
          durationSec: demoDuration(index),
          artistId: artistRow.id,
          artistName: artist.name,
          albumId: albumRow.id,
          trackNumber: trackIndex + 1,
          title: song.title,
          genre: album.genre,
          accessType: song.accessType,
          freeToStream: song.freeToStream ?? false,
          price: song.price,
          sourceKey: null,
          // Newest first in lists: spread creation times so the order is stable and meaningful.
          createdAt: new Date(now - index * 60_000),
          coverKey: () => albumRow.imageKey,
        });
      });
    });
  });
  return { artists: artistRows, albums: albumRows, songs: songRows };
}
