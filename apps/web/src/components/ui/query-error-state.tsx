import { isMissingResource, queryErrorText } from '../../lib/api-query';
import { Button } from './button';
import { EmptyState } from './empty-state';

/** What a failed RTK Query hook gives: its error and a way to ask again. */
interface FailedQuery {
  error?: unknown;
  refetch: () => unknown;
}

/**
 * A failed load: the server's message (else the SPEC fallback text) and a retry, unless it was a 404. Pass the
 * failed `query` to retry it, or an `error` and an optional `onRetry`.
 */
export function QueryErrorState({
  query,
  error = query?.error,
  fallback,
  onRetry = query ? () => void query.refetch() : undefined,
  title = 'Something went wrong',
}: {
  query?: FailedQuery;
  error?: unknown;
  fallback: string;
  onRetry?: () => void;
  title?: string;
}) {
  return (
    <EmptyState
      tone="error"
      title={title}
      description={queryErrorText(error, fallback)}
      action={
        onRetry && !isMissingResource(error) ? (
          <Button variant="secondary" onClick={onRetry}>
            Try again
          </Button>
        ) : undefined
      }
    />
  );
}
