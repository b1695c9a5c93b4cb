import { isMissingResource, queryErrorText } from '../../lib/api-query';
import { Button } from './button';
import { EmptyState } from './empty-state';

/** A failed load: the server's message (else the SPEC fallback text) and a retry, unless it was a 404. */
export function QueryErrorState({
  error,
  fallback,
  onRetry,
  title = 'Something went wrong',
}: {
  error: unknown;
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
