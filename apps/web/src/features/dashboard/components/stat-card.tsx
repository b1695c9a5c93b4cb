import type { ReactNode } from 'react';
import { ArrowDownRight, ArrowUpRight, Minus, type LucideIcon } from 'lucide-react';
import { Skeleton, cx } from '../../../components/ui';
import type { FigureChange } from '../dashboard-change';

export interface StatChange extends FigureChange {
  /** "previous 30 days". */
  against: string;
  /** Which way is good news (refunds: down); colours follow it, the arrow and the words say it anyway. */
  better?: 'up' | 'down';
}

const ARROW = { up: ArrowUpRight, down: ArrowDownRight, same: Minus };
const SPOKEN = { up: 'Up', down: 'Down', same: '' };

/** One number on a dashboard, with its label and, once known, its change against the previous period. */
export function StatCard({
  label,
  value,
  icon,
  loading = false,
  change,
}: {
  label: string;
  value: ReactNode;
  icon?: ReactNode;
  loading?: boolean;
  change?: StatChange | null;
}) {
  const Arrow = change ? ARROW[change.direction] : null;
  const good = change && change.direction !== 'same' && change.direction === (change.better ?? 'up');
  return (
    <div
      role="group"
      aria-label={label}
      className="flex flex-col rounded-card border border-line bg-surface p-5"
    >
      <div className="flex items-center justify-between gap-2 text-meta font-medium uppercase tracking-wider text-muted">
        <span>{label}</span>
        <span aria-hidden="true" className="text-accent">
          {icon}
        </span>
      </div>
      {/* mt-auto: a label on two lines does not push this card's value below its neighbours'. */}
      <div className="mt-auto pt-2">
        {loading ? (
          <Skeleton className="mt-1 h-8 w-24" />
        ) : (
          <p className="text-h2 font-bold tabular-nums">{value}</p>
        )}
        {/* Always one line tall, so the card does not grow when the comparison arrives. */}
        <p
          className="mt-1 flex h-4 min-w-0 items-center gap-1 text-meta tabular-nums"
          data-testid="stat-change"
        >
          {change && Arrow && !loading ? (
            <>
              <Arrow
                size={14}
                strokeWidth={2}
                aria-hidden="true"
                className={cx(
                  'shrink-0',
                  change.direction === 'same' ? 'text-muted' : good ? 'text-ok' : 'text-danger',
                )}
              />
              {change.direction !== 'same' ? (
                <span className="sr-only">{SPOKEN[change.direction]} </span>
              ) : null}
              <span className={cx('font-semibold', change.direction === 'same' ? 'text-muted' : 'text-text')}>
                {change.text}
              </span>
              <span className="truncate text-muted">vs {change.against}</span>
            </>
          ) : null}
        </p>
      </div>
    </div>
  );
}

/** One dashboard card's figures, for a grid of them. */
export interface StatCardEntry {
  label: string;
  Icon: LucideIcon;
  value: ReactNode;
  loading: boolean;
  change?: StatChange | null;
}

/** A grid of stat cards (`className` sets its columns and spacing). */
export function StatCards({ cards, className }: { cards: StatCardEntry[]; className: string }) {
  return (
    <div className={cx('grid grid-cols-2 gap-3', className)}>
      {cards.map(({ Icon, ...card }) => (
        <StatCard key={card.label} icon={<Icon size={18} strokeWidth={1.75} />} {...card} />
      ))}
    </div>
  );
}
