import { Button, EmptyState, Logo } from '../components/ui';

/** Shown when a screen fails to load (e.g. a new version was deployed while the page was open). */
export function RouteError() {
  const detail = 'This screen could not be loaded. Reloading usually fixes it.';
  return (
    <div className="flex min-h-dvh flex-col items-center justify-center gap-8 px-4">
      <title>Something went wrong · Backbeat</title>
      <Logo height={28} />
      <EmptyState
        tone="error"
        title="Something went wrong"
        description={detail}
        action={<Button onClick={() => window.location.reload()}>Reload</Button>}
        className="w-full max-w-md"
      />
    </div>
  );
}
