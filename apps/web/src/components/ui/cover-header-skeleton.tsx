import { Skeleton } from './skeleton';

/** The placeholder of an album's or a playlist's header while it loads: a square cover beside three text lines. */
export function CoverHeaderSkeleton() {
  return (
    <div aria-hidden="true" className="mb-10 flex flex-col gap-6 md:flex-row md:items-end">
      <Skeleton className="size-48 shrink-0 rounded-card md:size-56" />
      <div className="flex flex-col gap-3">
        <Skeleton className="h-4 w-16" />
        <Skeleton className="h-10 w-72 max-w-full" />
        <Skeleton className="h-4 w-48" />
      </div>
    </div>
  );
}
