import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** The list page lives in the URL (`?page=2`) so back/forward and shared links keep it. First page is 1. */
export function usePageParam(): [number, (page: number) => void] {
  const [params, setParams] = useSearchParams();
  const raw = Number.parseInt(params.get('page') ?? '1', 10);
  const page = Number.isFinite(raw) && raw >= 1 ? raw : 1;
  const setPage = useCallback(
    (next: number) => {
      setParams(
        (current) => {
          const updated = new URLSearchParams(current);
          if (next <= 1) updated.delete('page');
          else updated.set('page', String(next));
          return updated;
        },
        { preventScrollReset: false },
      );
      window.scrollTo({ top: 0 });
    },
    [setParams],
  );
  return [page, setPage];
}
