/** The auth feature's public surface. */
export { authRequests } from './auth.requests';
export {
  addPurchasedAlbum,
  addPurchasedSong,
  authReducer,
  clearAuthFeedback,
  createInitialAuthState,
  sessionEnded,
  userUpdated,
} from './auth.slice';
export {
  AUTH_MESSAGES,
  fetchProfile,
  login,
  logout,
  register,
  socialLoginSuccess,
  toggleLikedSong,
  updateGenres,
} from './auth.thunks';
export * from './auth.selectors';
export { startAuthListeners } from './auth.listeners';
export { useGetAuthProvidersQuery } from './auth.api';
export { hasPreferredGenres, isAdmin, mergeUser } from './auth.user';
export type { AuthState, AuthStatus, AuthProvider } from './auth.types';
export {
  validateEmail,
  validateName,
  validateNewPassword,
  validatePasswordConfirmation,
} from './auth.validation';
export { SocialLogin } from './components/social-login';
export { PasswordField } from './components/password-field';
export { AuthForm, AuthIntro, BackToLogin, EmailField } from './components/auth-form';
export { useAuthForm } from './use-auth-form';
export { DeleteAccountForm } from './components/delete-account-form';
export { ProfileSettings } from './settings/profile-settings';
export { EmailSettings } from './settings/email-settings';
export { PasswordSettings } from './settings/password-settings';
export { useSongLikes } from './use-song-likes';
