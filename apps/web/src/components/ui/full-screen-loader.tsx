import markUrl from '../../assets/logo-mark.svg';
import { Spinner } from './spinner';

/** Shown while the app restores the session at start-up. */
export function FullScreenLoader({ label = 'Loading Backbeat' }: { label?: string }) {
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-6 bg-bg">
      <img src={markUrl} alt="" width={48} height={48} className="rounded-card" />
      <Spinner size="lg" label={label} />
    </div>
  );
}
