import type { AuthUser } from '../../platform/auth';
import { badRequest, notFound } from '../../platform/errors';
import type { ProfileRepository } from './profile.repository';

export class PreferencesService {
  constructor(private readonly deps: { profiles: ProfileRepository }) {}

  /** Replaces the preferred genres; each entry is a genre name or slug, any case. */
  async updateGenres(auth: AuthUser, requested: string[]): Promise<string[]> {
    const keys = [...new Set(requested.map((entry) => entry.trim().toLowerCase()))];
    const found = await this.deps.profiles.findGenresByKeys(keys);
    const byKey = new Map<string, { id: string; name: string }>();
    for (const genre of found) {
      byKey.set(genre.slug.toLowerCase(), genre);
      byKey.set(genre.name.toLowerCase(), genre);
    }
    const unknown = requested.find((entry) => !byKey.has(entry.trim().toLowerCase()));
    if (unknown !== undefined) throw badRequest(`Unknown genre: ${unknown.trim()}`, 'UNKNOWN_GENRE');
    const ids = [...new Set(keys.map((key) => byKey.get(key)!.id))];
    await this.deps.profiles.replacePreferredGenres(auth.id, ids);
    return this.deps.profiles.preferredGenreNames(auth.id);
  }

  async toggleLike(auth: AuthUser, songId: string): Promise<{ liked: boolean; likedsong: string[] }> {
    if (!(await this.deps.profiles.songExists(songId))) throw notFound('Song not found', 'SONG_NOT_FOUND');
    const liked = await this.deps.profiles.toggleLike(auth.id, songId);
    return { liked, likedsong: await this.deps.profiles.likedSongIds(auth.id) };
  }
}
