import { useEffect, useRef, useState } from 'react';
import { CheckCircle2, Clock, Play, XCircle } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { Button, Spinner, buttonClasses } from '../../../components/ui';
import { formatMoney } from '../../../lib/format';
import { useLazyGetAlbumSongsQuery, useLazyGetSongQuery } from '../../catalog';
import { playFromList } from '../../player';
import { useCommerceDispatch } from '../commerce.store';
import type { Order } from '../commerce.types';
import { useGetOrderQuery } from '../payments.api';
import { CYCLE_SUFFIX } from '../subscription-cycles';
import { useRefreshAfterPayment } from '../use-refresh-after-payment';

/** How long the page waits for the gateway's confirmation (its webhook) before saying it is still on its way. */
const WAIT_FOR_WEBHOOK_MS = 90_000;

const KIND: Record<Order['itemType'], string> = {
  song: 'Song',
  album: 'Album',
  subscription: 'Subscription',
};

/**
 * What a payment bought, as its order says: it waits for the gateway's confirmation (the order turns paid when the
 * verified event arrives), then unlocks playback at once and offers to play it.
 */
export function OrderOutcome({ orderId }: { orderId: string }) {
  const [startedAt] = useState(() => Date.now());
  const [waiting, setWaiting] = useState(true);
  const order = useGetOrderQuery(orderId, { pollingInterval: waiting ? 1000 : 0 });
  const refresh = useRefreshAfterPayment();
  const refreshed = useRef(false);
  const status = order.data?.status;

  useEffect(() => {
    if (status && status !== 'pending') setWaiting(false);
    if (status === 'pending' && Date.now() - startedAt > WAIT_FOR_WEBHOOK_MS) setWaiting(false);
    if (status === 'paid' && order.data && !refreshed.current) {
      refreshed.current = true;
      void refresh(order.data);
    }
  }, [order.data, refresh, startedAt, status]);

  if (order.isLoading) {
    return (
      <p className="flex items-center justify-center gap-2 text-body text-muted" role="status">
        <Spinner size="sm" /> Checking your order…
      </p>
    );
  }
  if (order.isError || !order.data) {
    return <p className="text-body text-muted">This order could not be found on your account.</p>;
  }
  const data = order.data;
  const price = formatMoney(data.amount, data.currency);
  const suffix =
    data.itemType === 'subscription' && data.cycle ? (CYCLE_SUFFIX[data.cycle as '1m'] ?? '') : '';
  return (
    <div className="flex w-full flex-col items-center gap-4" aria-live="polite">
      <div className="w-full rounded-card border border-line bg-surface px-5 py-4 text-left">
        <p className="text-meta font-semibold tracking-wide text-muted uppercase">{KIND[data.itemType]}</p>
        <p className="mt-1 truncate text-h4 font-semibold">{data.itemTitle}</p>
        <p className="mt-1 flex items-center gap-2 text-body text-muted tabular-nums">
          {price}
          {suffix}
          <span aria-hidden="true">·</span>
          <OrderStatusLine status={data.status} waiting={waiting} />
        </p>
      </div>
      {data.status === 'paid' ? <PlayIt order={data} /> : null}
    </div>
  );
}

function OrderStatusLine({ status, waiting }: { status: Order['status']; waiting: boolean }) {
  if (status === 'paid') {
    return (
      <span className="inline-flex items-center gap-1 text-ok">
        <CheckCircle2 size={14} strokeWidth={1.75} aria-hidden="true" /> Paid, unlocked
      </span>
    );
  }
  if (status === 'pending') {
    return (
      <span className="inline-flex items-center gap-1">
        {waiting ? <Spinner size="sm" /> : <Clock size={14} strokeWidth={1.75} aria-hidden="true" />}
        {waiting
          ? 'Confirming with the payment provider…'
          : 'Still being confirmed; it unlocks as soon as it is.'}
      </span>
    );
  }
  return (
    <span className="inline-flex items-center gap-1 text-danger">
      <XCircle size={14} strokeWidth={1.75} aria-hidden="true" /> {status}
    </span>
  );
}

/** The next step after paying: play the song or album now, or open the artist whose songs are now unlocked. */
function PlayIt({ order }: { order: Order }) {
  const dispatch = useCommerceDispatch();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [readSong] = useLazyGetSongQuery();
  const [readAlbumSongs] = useLazyGetAlbumSongsQuery();
  if (order.itemType === 'subscription') {
    return order.itemId ? (
      <Link to={`/artist/${order.itemId}`} className={buttonClasses({ size: 'lg' })}>
        <Play size={18} strokeWidth={1.75} aria-hidden="true" /> Listen to the artist
      </Link>
    ) : null;
  }
  if (!order.itemId) return null;
  const itemId = order.itemId;

  async function play() {
    setBusy(true);
    try {
      const songs =
        order.itemType === 'song' ? [await readSong(itemId).unwrap()] : await readAlbumSongs(itemId).unwrap();
      if (songs.length > 0) {
        dispatch(
          playFromList({
            songs,
            index: 0,
            context: order.itemType === 'album' ? { type: 'album', id: itemId } : { type: 'all' },
          }),
        );
      }
      await navigate(order.itemType === 'album' ? `/album/${itemId}` : '/purchases');
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button size="lg" loading={busy} onClick={() => void play()} icon={<Play size={18} strokeWidth={1.75} />}>
      Play it now
    </Button>
  );
}
