import { useSyncExternalStore } from 'react';
import type { Song } from './studio.types';

/**
 * Songs uploaded in this tab that are not ready yet. The catalogue lists show only ready songs, so the studio
 * keeps its own note of uploads still processing (or failed) to show their status. Kept in session storage so a
 * reload keeps them; ended sessions clear session storage anyway.
 */

const STORAGE_KEY = 'backbeat-studio-uploads';
const MAX_ENTRIES = 50;

type Listener = () => void;
const listeners = new Set<Listener>();
let cache: Song[] | null = null;

function isSong(value: unknown): value is Song {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { _id?: unknown })._id === 'string' &&
    typeof (value as { artist?: { _id?: unknown } }).artist?._id === 'string'
  );
}

function read(): Song[] {
  if (cache) return cache;
  try {
    const parsed: unknown = JSON.parse(window.sessionStorage.getItem(STORAGE_KEY) ?? '[]');
    cache = Array.isArray(parsed) ? parsed.filter(isSong) : [];
  } catch {
    cache = [];
  }
  return cache;
}

function write(songs: Song[]) {
  cache = songs.slice(0, MAX_ENTRIES);
  try {
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(cache));
  } catch {
    // Storage blocked or full: the list still lives in memory for this page.
  }
  listeners.forEach((listener) => listener());
}

/** Notes (or refreshes) an upload; the newest first. */
export function rememberUpload(song: Song): void {
  write([song, ...read().filter((entry) => entry._id !== song._id)]);
}

export function forgetUpload(songId: string): void {
  if (read().some((entry) => entry._id === songId)) write(read().filter((entry) => entry._id !== songId));
}

export function findUpload(songId: string): Song | undefined {
  return read().find((entry) => entry._id === songId);
}

function subscribe(listener: Listener) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEY || event.key === null) {
      cache = null;
      listener();
    }
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The remembered uploads of one artist (all when `artistId` is undefined). */
export function useRecentUploads(artistId?: string): Song[] {
  const all = useSyncExternalStore(subscribe, read, () => EMPTY);
  return artistId === undefined ? all : all.filter((song) => song.artist._id === artistId);
}

const EMPTY: Song[] = [];
