import { ArrowRight, HeartHandshake, ShoppingBag } from 'lucide-react';
import { Link } from 'react-router';
import { ArtistPortrait } from '../components/artist-portrait';
import { CoverShelf, SongShelf } from './parts/shelves';
import {
  EmptyState,
  LinkEmptyState,
  PageHeader,
  QueryErrorState,
  Section,
  Skeleton,
  buttonClasses,
} from '../components/ui';
import { AlbumCard, CoverGridSkeleton, SongListSkeleton } from '../features/catalog';
import { DownloadMenu } from '../features/downloads';
import {
  PaymentStatus,
  useGetPurchasesQuery,
  useGetSubscriptionsQuery,
  type UserSubscription,
} from '../features/library';
import { formatDate } from '../lib/format';

const CYCLE_NAMES: Record<string, string> = {
  '1m': 'Monthly',
  '3m': 'Every 3 months',
  '6m': 'Every 6 months',
  '12m': 'Yearly',
};

/** "Monthly · renews on 3 Jan 2027", "Yearly · plays until 3 Jan 2027", "Monthly · ended 3 Jan 2027". */
function subscriptionLine(subscription: UserSubscription): string {
  const plan = subscription.cycle ? (CYCLE_NAMES[subscription.cycle] ?? subscription.cycle) : 'Subscription';
  const end = subscription.currentPeriodEnd ? formatDate(subscription.currentPeriodEnd) : '';
  if (!end) return plan;
  const status = subscription.status ?? 'active';
  if (status === 'active' && !subscription.cancelAtPeriodEnd) return `${plan} · renews on ${end}`;
  if (status === 'past_due') return `${plan} · payment failed, plays until ${end}`;
  if (status === 'cancelled' || subscription.cancelAtPeriodEnd) return `${plan} · plays until ${end}`;
  if (status === 'revoked') return `${plan} · refunded`;
  return `${plan} · ended ${end}`;
}

function Subscriptions({
  data,
  isError,
  error,
  refetch,
}: {
  data: UserSubscription[] | undefined;
  isError: boolean;
  error: unknown;
  refetch: () => unknown;
}) {
  if (isError) {
    return (
      <QueryErrorState
        error={error}
        fallback="Failed to fetch subscriptions"
        onRetry={() => void refetch()}
      />
    );
  }
  if (!data || data.length === 0) {
    return (
      <EmptyState
        icon={<HeartHandshake size={22} strokeWidth={1.75} />}
        title="No subscriptions"
        description="Subscribe to an artist from their page to unlock their subscriber releases."
      />
    );
  }
  return (
    <ul className="grid gap-3 md:grid-cols-2 xl:grid-cols-3">
      {data.map((subscription) => {
        const artistId = subscription.artist?._id ?? subscription.artistId;
        const name = subscription.artist?.name ?? subscription.artistName ?? 'Artist';
        const content = (
          <>
            <ArtistPortrait
              image={subscription.artist?.image}
              name={name}
              iconSize={20}
              className="size-12"
            />
            <div className="min-w-0 flex-1">
              <p className="truncate text-body font-semibold">{name}</p>
              {/* Wraps rather than cut "renews on …" short in a narrow card (three to a row at 1280 px). */}
              <p className="text-meta text-balance text-muted">{subscriptionLine(subscription)}</p>
            </div>
            <PaymentStatus status={subscription.status ?? 'active'} />
          </>
        );
        return (
          <li key={subscription._id}>
            {artistId ? (
              <Link
                to={`/artist/${encodeURIComponent(artistId)}`}
                className="flex items-center gap-3 rounded-card border border-line bg-surface p-3 transition-colors hover:bg-surface-2"
              >
                {content}
              </Link>
            ) : (
              <div className="flex items-center gap-3 rounded-card border border-line bg-surface p-3">
                {content}
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

export default function PurchasesPage() {
  const {
    data,
    isLoading: purchasesLoading,
    isError,
    error,
    refetch,
  } = useGetPurchasesQuery(undefined, {
    refetchOnMountOrArgChange: true,
  });
  const subscriptions = useGetSubscriptionsQuery(undefined, { refetchOnMountOrArgChange: true });
  // Both lists show at once: the page keeps its skeleton until purchases and subscriptions have both answered, so
  // neither section moves when the other one fills in.
  const isLoading = purchasesLoading || subscriptions.isLoading;
  const nothing = data && data.songs.length === 0 && data.albums.length === 0;

  return (
    <>
      <title>Purchases · Backbeat</title>
      <PageHeader
        eyebrow="Your library"
        title="Purchases"
        description="Songs and albums you own, and the artists you support."
        actions={
          <Link to="/payment-history" className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
            Payment history
            <ArrowRight size={16} strokeWidth={1.75} aria-hidden="true" />
          </Link>
        }
      />
      {isLoading ? (
        // Replaced as a whole by the loaded page (its sections are new elements, not moved ones).
        <div aria-hidden="true">
          <Section title="Albums">
            <CoverGridSkeleton count={5} />
          </Section>
          <Section title="Songs">
            <SongListSkeleton count={6} />
          </Section>
          <Section title="Subscriptions">
            <div className="grid gap-3 md:grid-cols-2" aria-hidden="true">
              <Skeleton className="h-20" />
              <Skeleton className="h-20" />
            </div>
          </Section>
        </div>
      ) : isError ? (
        <div className="mb-10">
          <QueryErrorState
            error={error}
            fallback="Failed to fetch purchases"
            onRetry={() => void refetch()}
          />
        </div>
      ) : nothing || !data ? (
        <div className="mb-10">
          <LinkEmptyState
            icon={ShoppingBag}
            title="You have not bought anything yet"
            description="Songs and albums you buy are yours to keep and show up here."
            to="/artists"
            linkLabel="Browse artists"
          />
        </div>
      ) : (
        <>
          <CoverShelf
            title="Albums"
            headingId="purchased-albums"
            label="Purchased albums"
            items={data.albums}
          >
            {(album) => (
              <AlbumCard
                key={album._id}
                album={album}
                action={<DownloadMenu itemType="album" id={album._id} title={album.title} />}
              />
            )}
          </CoverShelf>
          <SongShelf
            title="Songs"
            headingId="purchased-songs"
            label="Purchased songs"
            songs={data.songs}
            rowAction={(song) =>
              song.canDownload && song.status === 'ready' ? (
                <DownloadMenu itemType="song" id={song._id} title={song.title} look="row" />
              ) : null
            }
          />
        </>
      )}
      {isLoading ? null : (
        <Section title="Subscriptions" headingId="subscriptions">
          <Subscriptions
            data={subscriptions.data}
            isError={subscriptions.isError}
            error={subscriptions.error}
            refetch={subscriptions.refetch}
          />
        </Section>
      )}
    </>
  );
}
