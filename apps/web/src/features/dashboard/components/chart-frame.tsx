import type { ReactNode } from 'react';
import { BarChart3 } from 'lucide-react';
import { EmptyState, QueryErrorState, Skeleton } from '../../../components/ui';

/**
 * A chart card: title and headline figure, a skeleton while loading, the server's message on failure, an empty
 * state that says what to do, and (for screen readers) the chart's data as a table.
 */
export function ChartFrame({
  title,
  headline,
  query,
  fallback,
  empty,
  emptyText,
  table,
  children,
}: {
  title: string;
  headline?: ReactNode;
  /** The chart's series query; none yet (its code still loading) shows the loading frame. */
  query?: { isLoading: boolean; isError: boolean; error?: unknown; refetch: () => unknown };
  fallback: string;
  empty: boolean;
  emptyText: string;
  table: { caption: string; columns: string[]; rows: Array<Array<string | number>> };
  children: ReactNode;
}) {
  return (
    <figure className="flex min-w-0 flex-col rounded-card border border-line bg-surface p-4 md:p-5">
      <figcaption className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <span className="text-body font-semibold">{title}</span>
        {headline ? <span className="text-meta text-muted tabular-nums">{headline}</span> : null}
      </figcaption>
      {!query || query.isLoading ? (
        <Skeleton className="h-56 md:h-64" />
      ) : query.isError ? (
        <QueryErrorState query={query} fallback={fallback} />
      ) : empty ? (
        <EmptyState
          icon={<BarChart3 size={22} strokeWidth={1.75} />}
          title="Nothing in this range"
          description={emptyText}
        />
      ) : (
        <>
          <div className="h-56 md:h-64" aria-hidden="true">
            {children}
          </div>
          <table className="sr-only">
            <caption>{table.caption}</caption>
            <thead>
              <tr>
                {table.columns.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {table.rows.map((row, index) => (
                <tr key={index}>
                  {row.map((cell, cellIndex) => (
                    <td key={cellIndex}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </figure>
  );
}
