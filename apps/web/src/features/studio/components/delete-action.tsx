import { useState } from 'react';
import { Trash2 } from 'lucide-react';
import { toast } from '../../../lib/toast';
import { Button, ConfirmDialog, IconButton } from '../../../components/ui';
import { queryErrorText } from '../../../lib/api-query';
import { forgetUpload } from '../recent-uploads';
import {
  useDeleteAlbumMutation,
  useDeleteArtistMutation,
  useDeleteSongMutation,
  type StudioEntity,
} from '../studio.api';
import { STUDIO_MESSAGES } from '../studio.messages';

const consequences: Record<StudioEntity, string> = {
  song: 'The song, its audio and its cover are removed for everyone, including people who bought it.',
  album: 'The album is removed; its songs stay in your catalogue without an album.',
  artist: 'The profile is removed together with all of its songs and albums.',
};

function useDelete(entity: StudioEntity) {
  const songs = useDeleteSongMutation();
  const albums = useDeleteAlbumMutation();
  const artists = useDeleteArtistMutation();
  return { song: songs, album: albums, artist: artists }[entity];
}

/**
 * A delete button that asks first (a dialog naming what goes), then deletes, toasts and calls `onDeleted`.
 * `compact` shows an icon-only button for list rows.
 */
export function DeleteAction({
  entity,
  id,
  name,
  compact = false,
  onDeleted,
}: {
  entity: StudioEntity;
  id: string;
  name: string;
  compact?: boolean;
  onDeleted?: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [remove, { isLoading }] = useDelete(entity);
  const messages = STUDIO_MESSAGES[entity];
  const label = `Delete ${entity} ${name}`;

  async function confirm() {
    const result = await remove(id);
    if ('error' in result && result.error) {
      toast.error(queryErrorText(result.error, messages.deleteFailed));
      return;
    }
    if (entity === 'song') forgetUpload(id);
    setOpen(false);
    toast.success(entity === 'song' ? messages.deleted : (result.data?.message ?? messages.deleted));
    onDeleted?.();
  }

  return (
    <>
      {compact ? (
        <IconButton label={label} size="sm" onClick={() => setOpen(true)}>
          <Trash2 size={18} strokeWidth={1.75} aria-hidden="true" />
        </IconButton>
      ) : (
        <Button
          variant="secondary"
          aria-label={label}
          icon={<Trash2 size={18} strokeWidth={1.75} aria-hidden="true" />}
          onClick={() => setOpen(true)}
        >
          Delete
        </Button>
      )}
      <ConfirmDialog
        open={open}
        title={`Delete “${name}”?`}
        confirmLabel={`Delete ${entity}`}
        busy={isLoading}
        onCancel={() => setOpen(false)}
        onConfirm={() => void confirm()}
      >
        {consequences[entity]} This cannot be undone.
      </ConfirmDialog>
    </>
  );
}
