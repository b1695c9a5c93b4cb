import { createContext, type ComponentType } from 'react';
import type { Song } from '@backbeat/contract';

/**
 * What a song row (or the player, at the end of a preview, with `look: 'header'`) shows in place of its lock
 * label when the viewer may not play the song (e.g. a buy button).
 * The app provides it, so the catalogue, the player and playlists do not depend on the features that sell songs;
 * without one, rows show the lock as text. Shared code, so those three features need not import one another for it.
 */
export type SongLockAction = ComponentType<{ song: Song; look?: 'row' | 'header' }>;

export const SongLockActionContext = createContext<SongLockAction | null>(null);
