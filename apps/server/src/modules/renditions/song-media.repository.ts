import { and, eq } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { songs } from '../../db/schema';
import type { SongMediaRow } from './media-references.repository';

/** A song's media state as the transcode and the media clean-up read and settle it. */
export class SongMediaRepository {
  constructor(private readonly db: AppDb) {}

  async findUpload(id: string): Promise<SongMediaRow | null> {
    const [row] = await this.db
      .select({ id: songs.id, status: songs.status, sourceKey: songs.sourceKey, hlsPrefix: songs.hlsPrefix })
      .from(songs)
      .where(eq(songs.id, id))
      .limit(1);
    return row ?? null;
  }

  /**
   * Marks a transcode's outcome, but only if the song still waits for that very upload: a newer upload (or a
   * delete) in the meantime wins. Returns whether the row was updated.
   */
  async finishProcessing(
    id: string,
    sourceKey: string,
    outcome:
      | { status: 'ready'; durationSec: number; hlsPrefix: string }
      | { status: 'failed'; failureReason: string },
  ): Promise<boolean> {
    const changes =
      outcome.status === 'ready'
        ? {
            status: 'ready' as const,
            durationSec: outcome.durationSec,
            hlsPrefix: outcome.hlsPrefix,
            sourceKey: null,
            failureReason: null,
          }
        : { status: 'failed' as const, failureReason: outcome.failureReason };
    const updated = await this.db
      .update(songs)
      .set({ ...changes, updatedAt: new Date() })
      // Only the song still waiting for this very upload: a later upload, or an attempt that already settled it
      // (a retry after its worker was presumed dead), makes this a no-op.
      .where(and(eq(songs.id, id), eq(songs.sourceKey, sourceKey), eq(songs.status, 'processing')))
      .returning({ id: songs.id });
    return updated.length > 0;
  }
}
