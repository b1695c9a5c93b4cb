import type { ComponentProps, ReactNode } from 'react';
import { Mic2 } from 'lucide-react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { BackLink, LinkEmptyState, PageHeader } from '../../components/ui';
import { DeleteAction, studioPaths, useManagedArtists } from '../../features/studio';

/**
 * What every Studio editor page (artist, album, song) starts from: the edited item's id from the route (none:
 * a new one is created), the address's search params, navigation and the artists the account manages.
 */
export function useStudioEditor(idParam: 'artistId' | 'albumId' | 'songId') {
  const id = useParams()[idParam];
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const managed = useManagedArtists();
  return { id, mode: id ? ('edit' as const) : ('create' as const), params, navigate, managed };
}

/**
 * The frame of a Studio editor page (artist, album, song): the document title, the link back to the Studio,
 * the "Studio" header with the page's own description and the edited item's Delete button, and the form area
 * below. Once the item is deleted the page goes back to `backTo`.
 */
export function StudioEditorFrame({
  title,
  backTo,
  description,
  deletes,
  onDeleted,
  children,
}: {
  title: string;
  backTo: string;
  description?: ReactNode;
  /** The item being edited (none while creating, or before it has loaded). */
  deletes?: Pick<ComponentProps<typeof DeleteAction>, 'entity' | 'id' | 'name'> | null;
  /** Called after a delete, before going back. */
  onDeleted?: () => void;
  children: ReactNode;
}) {
  const navigate = useNavigate();
  return (
    <>
      <title>{`${title} · Studio · Backbeat`}</title>
      <BackLink to={backTo} className="mb-4 -ml-2">
        Studio
      </BackLink>
      <PageHeader
        eyebrow="Studio"
        title={title}
        description={description}
        actions={
          deletes ? (
            <DeleteAction
              {...deletes}
              onDeleted={() => {
                onDeleted?.();
                void navigate(backTo, { replace: true });
              }}
            />
          ) : undefined
        }
      />
      <div className="max-w-4xl">{children}</div>
    </>
  );
}

/** An editor's item that is not there: it does not exist, or the account does not manage it. */
export function StudioItemNotFound({
  title,
  description,
  backTo,
}: {
  title: string;
  description: string;
  backTo: string;
}) {
  return (
    <LinkEmptyState
      tone="error"
      title={title}
      description={description}
      to={backTo}
      linkLabel="Back to the studio"
      linkVariant="secondary"
    />
  );
}

/** An album or song editor opened by an account with no artist profile: it needs one first. */
export function StudioProfileFirst({ items }: { items: 'Albums' | 'Songs' }) {
  return (
    <LinkEmptyState
      icon={Mic2}
      title="Create your artist profile first"
      description={`${items} belong to an artist profile.`}
      to={studioPaths.newArtist()}
      linkLabel="Create your profile"
    />
  );
}
