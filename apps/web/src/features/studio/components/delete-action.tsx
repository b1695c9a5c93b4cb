import { useState } from 'react';
import { Trash2 } from 'lucide-react';
import { toast } from '../../../lib/toast';
import { Button, ConfirmDialog, IconButton, Spinner } from '../../../components/ui';
import { queryErrorText } from '../../../lib/api-query';
import { forgetUpload } from '../recent-uploads';
import {
  useDeleteAlbumMutation,
  useDeleteArtistMutation,
  useDeleteSongMutation,
  useGetBuyersQuery,
  type StudioEntity,
} from '../studio.api';
import { STUDIO_MESSAGES } from '../studio.messages';

/** What a delete does when nobody bought the item (or, for an artist, any of its music). */
const consequences: Record<StudioEntity, string> = {
  song: 'The song, its audio and its cover are removed.',
  album: 'The album is removed; its songs stay in your catalogue without an album.',
  artist:
    'The profile is removed together with all of its songs and albums. A profile whose music was bought ' +
    'stays: delete its songs and albums instead.',
};

const people = (count: number) => (count === 1 ? '1 person' : `${count.toLocaleString()} people`);

/** What a delete does to a song or album that was bought: its buyers keep it (a purchase is forever). */
function keptConsequence(entity: 'song' | 'album', buyers: number): string {
  const keep = buyers === 1 ? 'keeps' : 'keep';
  return entity === 'song'
    ? `${people(buyers)} bought this song (on its own or with its album) and ${keep} it: it stays in their ` +
        'purchases and still plays and downloads for them. For everyone else it leaves the catalogue and ' +
        'search, and it can no longer be bought.'
    : `${people(buyers)} bought this album and ${keep} it with the songs it holds now: it stays in their ` +
        'purchases and still plays and downloads for them. For everyone else it leaves the catalogue and ' +
        'search, and it can no longer be bought; its songs stay in your catalogue without an album.';
}

/** The dialog's text: for a song or album, what happens to its buyers, asked from the server when it opens. */
function Consequence({ entity, id, open }: { entity: StudioEntity; id: string; open: boolean }) {
  const asks = entity !== 'artist';
  const buyers = useGetBuyersQuery(
    { entity: entity === 'album' ? 'album' : 'song', id },
    { skip: !open || !asks, refetchOnMountOrArgChange: true },
  );
  if (!asks) return <>{consequences[entity]} This cannot be undone.</>;
  if (buyers.isFetching || (!buyers.data && !buyers.isError)) {
    return (
      <span className="flex items-center gap-2" aria-live="polite">
        <Spinner size="sm" tone="muted" /> Checking who bought it…
      </span>
    );
  }
  const count = buyers.data?.buyers ?? 0;
  if (buyers.isError || count === 0) {
    return <>{consequences[entity]} This cannot be undone.</>;
  }
  return <>{keptConsequence(entity === 'album' ? 'album' : 'song', count)} This cannot be undone.</>;
}

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
        <Consequence entity={entity} id={id} open={open} />
      </ConfirmDialog>
    </>
  );
}
