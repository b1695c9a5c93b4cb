import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from './button';

/** Previous / next paging with the current position. Hidden when there is one page. */
export function Pager({
  page,
  pages,
  onChange,
  label = 'Pagination',
}: {
  page: number;
  pages: number;
  onChange: (page: number) => void;
  label?: string;
}) {
  if (pages <= 1) return null;
  return (
    <nav aria-label={label} className="mt-6 flex items-center justify-center gap-3">
      <Button
        variant="secondary"
        size="sm"
        onClick={() => onChange(page - 1)}
        disabled={page <= 1}
        icon={<ChevronLeft size={16} strokeWidth={1.75} aria-hidden="true" />}
      >
        Previous
      </Button>
      <span className="text-meta text-muted tabular-nums" aria-current="page">
        Page {page} of {pages}
      </span>
      <Button variant="secondary" size="sm" onClick={() => onChange(page + 1)} disabled={page >= pages}>
        Next
        <ChevronRight size={16} strokeWidth={1.75} aria-hidden="true" />
      </Button>
    </nav>
  );
}
