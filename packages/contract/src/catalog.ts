import { z } from 'zod';
import { PageQuery10, PageQuery20 } from './common';

export const AccessType = z.enum(['subscription', 'purchase-only']);
export type AccessType = z.infer<typeof AccessType>;

export const ProcessingStatus = z.enum(['processing', 'ready', 'failed']);
export type ProcessingStatus = z.infer<typeof ProcessingStatus>;

export const Genre = z.object({ _id: z.string(), name: z.string(), slug: z.string() });
export type Genre = z.infer<typeof Genre>;
export const GenresResponse = z.object({ genres: z.array(Genre) });

/** Prices are integer minor units plus an ISO currency. */
export const Money = z.object({ amount: z.number().int(), currency: z.string() });

export const Song = z.object({
  _id: z.string(),
  title: z.string(),
  singer: z.string(),
  coverImage: z.string().nullable(),
  audioUrl: z.string().nullable(),
  duration: z.number(),
  accessType: AccessType,
  price: z.number().int(),
  currency: z.string(),
  genre: z.string().nullable(),
  artist: z.object({ _id: z.string(), name: z.string() }),
  album: z.object({ _id: z.string(), title: z.string(), isPremium: z.boolean() }).nullable(),
  status: ProcessingStatus,
  canPlay: z.boolean(),
  createdAt: z.string(),
});
export type Song = z.infer<typeof Song>;

export const SongsQuery = PageQuery10;
export const SongsResponse = z.object({
  songs: z.array(Song),
  totalPages: z.number().int(),
  total: z.number().int(),
  page: z.number().int(),
});
export type SongsResponse = z.infer<typeof SongsResponse>;

export const PagedSongsQuery = PageQuery20;
/** Liked, artist and genre lists: songs, total, page, pages. */
export const PagedSongsResponse = z.object({
  songs: z.array(Song),
  total: z.number().int(),
  page: z.number().int(),
  pages: z.number().int(),
});
export type PagedSongsResponse = z.infer<typeof PagedSongsResponse>;

export const Artist = z.object({
  _id: z.string(),
  name: z.string(),
  bio: z.string(),
  image: z.string().nullable(),
  genres: z.array(z.string()),
  subscriptionPrice: z.number().int(),
  currency: z.string(),
  ownerId: z.string().nullable(),
  songCount: z.number().int(),
  albumCount: z.number().int(),
  createdAt: z.string(),
});
export type Artist = z.infer<typeof Artist>;

export const Album = z.object({
  _id: z.string(),
  title: z.string(),
  description: z.string(),
  cover: z.string().nullable(),
  genre: z.string().nullable(),
  price: z.number().int(),
  currency: z.string(),
  isPremium: z.boolean(),
  artist: z.object({ _id: z.string(), name: z.string() }),
  songCount: z.number().int(),
  releaseDate: z.string(),
  createdAt: z.string(),
});
export type Album = z.infer<typeof Album>;
