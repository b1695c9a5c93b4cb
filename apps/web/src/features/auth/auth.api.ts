import { backbeatApi } from '../../lib/api-query';
import type { AuthProvider } from './auth.types';

const authApi = backbeatApi.injectEndpoints({
  endpoints: (build) => ({
    getAuthProviders: build.query<AuthProvider[], void>({
      query: () => '/auth/providers',
      transformResponse: (response: { providers?: AuthProvider[] } | null) =>
        Array.isArray(response?.providers) ? response.providers : [],
    }),
  }),
});

export const { useGetAuthProvidersQuery } = authApi;
