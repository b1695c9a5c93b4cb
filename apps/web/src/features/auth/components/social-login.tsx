import { LogIn } from 'lucide-react';
import { useGetAuthProvidersQuery } from '../auth.api';

/**
 * Social sign-in: one plain link per configured provider (GET /api/auth/providers). The server runs the OIDC
 * flow and returns to /auth/callback. Hidden when no provider is configured or the list cannot be loaded. A provider
 * the local test issuer stands in for (development) says so.
 */
export function SocialLogin({ action = 'Continue' }: { action?: string }) {
  const { data: providers } = useGetAuthProvidersQuery();
  if (!providers || providers.length === 0) return null;
  return (
    <div className="mt-6">
      <div className="flex items-center gap-3 text-meta text-muted" role="presentation">
        <span className="h-px flex-1 bg-line" />
        or
        <span className="h-px flex-1 bg-line" />
      </div>
      <ul className="mt-6 flex flex-col gap-3">
        {providers.map((provider) => (
          <li key={provider.id}>
            <a
              href={`/api/auth/${encodeURIComponent(provider.id)}`}
              className="flex h-11 w-full items-center justify-center gap-3 rounded-control border border-line bg-surface text-body font-semibold text-text transition-colors duration-150 hover:border-muted hover:bg-surface-2"
            >
              <LogIn size={18} strokeWidth={1.75} aria-hidden="true" />
              {action} with {provider.name}
            </a>
            {provider.testMode ? (
              <p className="mt-2 text-center text-meta text-muted">
                Test mode: a local stand-in for {provider.name} signs you in, without a password.
              </p>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}
