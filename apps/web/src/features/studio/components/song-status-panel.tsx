import { AlertTriangle, CheckCircle2 } from 'lucide-react';
import { Link } from 'react-router';
import { Spinner } from '../../../components/ui';
import type { SongStatusView } from '../use-song-status';
import { StatusBadge } from './status-badge';

/** Where an upload stands after it reached the server: transcoding, ready to play, or failed and why. */
export function SongStatusPanel({ view, songTitle }: { view: SongStatusView; songTitle: string }) {
  const { status, failureReason } = view;
  if (!status) return null;
  return (
    <section
      aria-label="Processing status"
      aria-live="polite"
      className="flex flex-col gap-3 rounded-card border border-line bg-surface p-4 md:flex-row md:items-center"
    >
      <div className="flex min-w-0 flex-1 items-start gap-3">
        {status === 'processing' ? (
          <Spinner size="md" className="mt-0.5 shrink-0" />
        ) : status === 'ready' ? (
          <CheckCircle2 size={22} strokeWidth={1.75} aria-hidden="true" className="shrink-0 text-ok" />
        ) : (
          <AlertTriangle size={22} strokeWidth={1.75} aria-hidden="true" className="shrink-0 text-danger" />
        )}
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 text-body font-semibold">
            <span className="truncate">{songTitle}</span>
            <StatusBadge status={status} />
          </p>
          <p className="mt-1 text-meta text-muted">
            {status === 'processing'
              ? 'Transcoding for streaming. This page checks every 2 seconds; you may leave it.'
              : status === 'ready'
                ? 'Ready: the song is live in the catalogue.'
                : `Processing failed: ${failureReason ?? 'the audio could not be processed.'} Upload another audio file to try again.`}
          </p>
        </div>
      </div>
      {status === 'ready' ? (
        <Link to="/studio" className="text-body font-semibold text-accent hover:underline">
          Back to the studio
        </Link>
      ) : null}
    </section>
  );
}
