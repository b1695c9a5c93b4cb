import type { User } from '@backbeat/contract';

export type AuthStatus = 'idle' | 'loading' | 'succeeded' | 'failed';

/** SPEC section 3: the auth state. The session token is deliberately absent (HttpOnly cookie only). */
export interface AuthState {
  user: User | null;
  isAuthenticated: boolean;
  status: AuthStatus;
  error: string | null;
  message: string | null;
}

export interface AuthProvider {
  id: string;
  name: string;
  /** The local test issuer stands in for it (development): its sign-in asks for no password. */
  testMode?: boolean;
}
