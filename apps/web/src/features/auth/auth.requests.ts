import type {
  AuthResponse,
  ChangePasswordResponse,
  ConfirmEmailResponse,
  LoginBody,
  MessageResponse,
  ProfileResponse,
  RegisterBody,
  User,
} from '@backbeat/contract';
import { api } from '../../lib/api';

/** The HTTP calls of the auth feature (all under /api). */

export interface LikeToggleResponse {
  message: string;
  liked?: boolean;
  likedsong?: string[];
}

export interface UpdateGenresResult {
  message: string;
  preferredGenres: string[];
}

/** The register/login body as the client sees it: `token` may be missing and must never be stored here. */
export type AuthAnswer = Partial<AuthResponse> & { user?: User };

export const authRequests = {
  register: (body: RegisterBody) => api.post<AuthAnswer>('/users/register', body),
  login: (body: LoginBody) => api.post<AuthAnswer>('/users/login', body),
  me: (options: { startup?: boolean } = {}) =>
    api.get<User>('/users/me', options.startup ? { unauthorizedIsAnswer: true } : undefined),
  logout: () => api.post<MessageResponse>('/users/logout'),
  updateGenres: (genres: string[]) => api.put<UpdateGenresResult>('/users/update-genres', { genres }),
  toggleLikedSong: (songId: string) =>
    api.put<LikeToggleResponse>(`/users/likedsong/${encodeURIComponent(songId)}`),
  forgotPassword: (email: string) => api.post<MessageResponse>('/users/forgot-password', { email }),
  resetPassword: (token: string, password: string) =>
    api.post<MessageResponse>(`/users/reset-password/${encodeURIComponent(token)}`, { password }),
  deleteAccount: (password?: string) =>
    api.delete<MessageResponse>('/users/me', password ? { password } : {}),
  // Settings (/settings).
  rename: (name: string) => api.patch<ProfileResponse>('/users/me', { name }),
  requestEmailChange: (email: string, password?: string) =>
    api.post<MessageResponse>('/users/me/email', password ? { email, password } : { email }),
  confirmEmailChange: (token: string, email: string) =>
    api.post<ConfirmEmailResponse>('/users/email/confirm', { token, email }),
  changePassword: (newPassword: string, currentPassword?: string) =>
    api.put<ChangePasswordResponse>(
      '/users/me/password',
      currentPassword ? { currentPassword, newPassword } : { newPassword },
    ),
  uploadAvatar: (image: File) => {
    const form = new FormData();
    form.append('image', image, image.name);
    return api.put<ProfileResponse>('/users/me/avatar', form);
  },
  removeAvatar: () => api.delete<ProfileResponse>('/users/me/avatar'),
};
