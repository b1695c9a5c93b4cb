import { useCallback, useEffect, useRef, useState } from 'react';
import { useDispatch } from 'react-redux';
import type { AlbumMutationResponse, ArtistMutationResponse, SongMutationResponse } from '@backbeat/contract';
import { backbeatApi } from '../../lib/api-query';
import { STUDIO_INVALIDATES, type StudioEntity } from './studio.api';
import { uploadRequest, type UploadProgress } from './upload-request';

export interface MutationResponses {
  song: SongMutationResponse;
  album: AlbumMutationResponse;
  artist: ArtistMutationResponse;
}

const collection: Record<StudioEntity, string> = { song: '/songs', album: '/albums', artist: '/artists' };

export interface StudioUpload {
  /** Per-file progress while a request is on its way; null otherwise. */
  progress: UploadProgress | null;
  uploading: boolean;
  /**
   * Sends the form (POST to create, PUT with an id to update), then empties the caches that show the entity.
   * Rejects with an ApiError; the caller turns it into a toast and inline errors.
   */
  save<Entity extends StudioEntity>(
    entity: Entity,
    form: FormData,
    id?: string,
  ): Promise<MutationResponses[Entity]>;
}

/**
 * Create or update an artist, album or song as multipart form data with upload progress. Navigating away
 * cancels an upload still in flight.
 */
export function useStudioUpload(): StudioUpload {
  const dispatch = useDispatch();
  const [progress, setProgress] = useState<UploadProgress | null>(null);
  const [uploading, setUploading] = useState(false);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const save = useCallback(
    async <Entity extends StudioEntity>(entity: Entity, form: FormData, id?: string) => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      setUploading(true);
      setProgress(null);
      try {
        const answer = await uploadRequest<MutationResponses[Entity]>({
          url: id ? `${collection[entity]}/${encodeURIComponent(id)}` : collection[entity],
          method: id ? 'PUT' : 'POST',
          form,
          signal: current.signal,
          onProgress: setProgress,
        });
        dispatch(backbeatApi.util.invalidateTags([...STUDIO_INVALIDATES[entity]]));
        return answer;
      } finally {
        if (controller.current === current) {
          controller.current = null;
          setUploading(false);
          setProgress(null);
        }
      }
    },
    [dispatch],
  );

  return { progress, uploading, save };
}
