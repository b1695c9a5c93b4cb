import logoUrl from '../../assets/logo.svg';
import { cx } from './class-names';

/** The Backbeat wordmark with its waveform mark. 176 x 32 intrinsic size. */
export function Logo({ className, height = 28 }: { className?: string; height?: number }) {
  return (
    <img
      src={logoUrl}
      alt="Backbeat"
      width={Math.round((176 / 32) * height)}
      height={height}
      className={cx('block select-none', className)}
      draggable={false}
    />
  );
}
