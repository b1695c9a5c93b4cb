import type { Song } from '../catalog';

/** Songs a play-all button may queue: ready, and playable for the viewer (locked songs would stop the queue). */
export function playableSongs(songs: readonly Song[]): Song[] {
  return songs.filter((song) => song.canPlay !== false && song.status === 'ready');
}

/** A Fisher-Yates shuffle into a new list; `random` in [0, 1), injectable for tests. */
export function shuffled<T>(list: readonly T[], random: () => number = Math.random): T[] {
  const out = [...list];
  for (let index = out.length - 1; index > 0; index -= 1) {
    const pick = Math.floor(random() * (index + 1));
    [out[index], out[pick]] = [out[pick]!, out[index]!];
  }
  return out;
}
