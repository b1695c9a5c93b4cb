import { z } from 'zod';
import { MessageResponse } from './common';

export const Role = z.enum(['user', 'artist', 'admin']);
export type Role = z.infer<typeof Role>;

export const User = z.object({
  _id: z.string(),
  name: z.string(),
  email: z.string(),
  profileImage: z.string().nullable(),
  role: Role,
  purchasedSongs: z.array(z.string()),
  purchasedAlbums: z.array(z.string()),
  likedsong: z.array(z.string()),
  preferredGenres: z.array(z.string()),
  playlist: z.array(z.string()),
  purchaseHistory: z.array(z.string()),
  artistId: z.string().nullable(),
  createdAt: z.string(),
});
export type User = z.infer<typeof User>;

const email = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .max(254, 'Email is too long')
  .email('Please enter a valid email address');
const password = z
  .string({ error: 'Password is required' })
  .min(8, 'Password must be at least 8 characters')
  .max(256, 'Password must be at most 256 characters');

const name = z
  .string({ error: 'Name is required' })
  .trim()
  .min(1, 'Name is required')
  .max(100, 'Name must be at most 100 characters');

export const RegisterBody = z.object({ name, email, password });
export type RegisterBody = z.infer<typeof RegisterBody>;

export const LoginBody = z.object({
  email,
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(256),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const AuthResponse = z.object({ message: z.string(), user: User, token: z.string() });
export type AuthResponse = z.infer<typeof AuthResponse>;

export const UpdateGenresBody = z.object({
  genres: z
    .array(z.string().trim().min(1).max(50), { error: 'genres must be a list' })
    .min(1, 'Choose at least one genre')
    .max(20, 'Choose at most 20 genres'),
});
export type UpdateGenresBody = z.infer<typeof UpdateGenresBody>;
export const UpdateGenresResponse = z.object({ message: z.string(), preferredGenres: z.array(z.string()) });
export type UpdateGenresResponse = z.infer<typeof UpdateGenresResponse>;

export const LikeSongParams = z.object({ songId: z.uuid({ error: 'Invalid song id' }) });
export type LikeSongParams = z.infer<typeof LikeSongParams>;
export const LikeResponse = z.object({
  message: z.string(),
  liked: z.boolean(),
  likedsong: z.array(z.string()),
});
export type LikeResponse = z.infer<typeof LikeResponse>;

/** GET /users/me answers with the User itself. */
export const MeResponse = User;
export type MeResponse = User;
export const LogoutResponse = MessageResponse;

export const ForgotPasswordBody = z.object({ email });
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;
export const ResetPasswordParams = z.object({
  token: z.string().min(1, 'Reset token is required').max(200, 'Reset token is too long'),
});
export type ResetPasswordParams = z.infer<typeof ResetPasswordParams>;
export const ResetPasswordBody = z.object({ password });
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

/** The current password; required when the account has one. */
export const DeleteAccountBody = z.object({ password: z.string().max(256).optional() });
export type DeleteAccountBody = z.infer<typeof DeleteAccountBody>;

/** A social sign-in provider; `testMode`: the local test issuer stands in for it (development). */
export const AuthProvider = z.object({ id: z.string(), name: z.string(), testMode: z.boolean().optional() });
export type AuthProvider = z.infer<typeof AuthProvider>;
export const AuthProvidersResponse = z.object({ providers: z.array(AuthProvider) });
export type AuthProvidersResponse = z.infer<typeof AuthProvidersResponse>;
/** Any id is accepted here; one that is not configured answers 404. */
export const AuthProviderParams = z.object({ provider: z.string() });
export type AuthProviderParams = z.infer<typeof AuthProviderParams>;

// ---------------------------------------------------------------------------------------------------------------
// Settings of the signed-in account (/settings).

/** PATCH /users/me: the display name. */
export const UpdateProfileBody = z.object({ name });
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>;
/** The account after a settings change (name, avatar). */
export const ProfileResponse = z.object({ message: z.string(), user: User });
export type ProfileResponse = z.infer<typeof ProfileResponse>;

/**
 * POST /users/me/email: mails a signed link, valid for 24 hours, to the new address; the address changes only when
 * that link is used. The current password is required when the account has one.
 */
export const ChangeEmailBody = z.object({ email, password: z.string().max(256).optional() });
export type ChangeEmailBody = z.infer<typeof ChangeEmailBody>;

/** POST /users/email/confirm: the token and the new address from the mailed link (no session needed). */
export const ConfirmEmailBody = z.object({
  token: z.string({ error: 'token is required' }).min(1, 'token is required').max(300, 'token is too long'),
  email,
});
export type ConfirmEmailBody = z.infer<typeof ConfirmEmailBody>;
export const ConfirmEmailResponse = z.object({ message: z.string(), email: z.string() });
export type ConfirmEmailResponse = z.infer<typeof ConfirmEmailResponse>;

/**
 * PUT /users/me/password: a new password; the current one is required when the account has one (a social account
 * sets its first password within 10 minutes of signing in). Every other session of the account ends.
 */
export const ChangePasswordBody = z.object({
  currentPassword: z.string().max(256).optional(),
  newPassword: password,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;
export const ChangePasswordResponse = z.object({
  message: z.string(),
  /** How many other sessions (other devices and browsers) were signed out. */
  endedSessions: z.number().int(),
});
export type ChangePasswordResponse = z.infer<typeof ChangePasswordResponse>;
