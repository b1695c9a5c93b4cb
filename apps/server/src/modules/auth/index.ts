import type { FastifyInstance } from 'fastify';
import type { AppDb } from '../../db/client';
import type { SessionLoader } from '../../platform/auth';
import type { SessionCache, SessionRevocations } from '../../platform/session-cache';
import type { ModuleContext } from '../index';
import { MailOutboxRepository, type MailLog } from '../mail';
import { AccountService } from './account.service';
import { AccountSettingsService } from './account-settings.service';
import { authRoutes } from './auth.routes';
import { AuthService } from './auth.service';
import { EmailChangeTokens } from './email-change-token';
import { DeviceCookies } from './device-cookie';
import { OidcService } from './oidc.service';
import { oidcRoutes } from './oidc.routes';
import { PasswordResetService } from './password-reset.service';
import { PasswordResetsRepository } from './password-resets.repository';
import { preferencesRoutes } from './preferences.routes';
import { PreferencesService } from './preferences.service';
import { ProfileRepository } from './profile.repository';
import { AUTH_RATE_LIMITS, RateLimitService } from './rate-limit.service';
import { RateLimitRepository } from './rate-limit.repository';
import { settingsRoutes } from './settings.routes';
import { findLiveSession, SessionsRepository } from './sessions.repository';
import { UsersRepository } from './users.repository';

export {
  AUTH_RATE_LIMITS,
  RateLimitService,
  RateLimitedError,
  type RateLimitRule,
} from './rate-limit.service';
export { RateLimitRepository } from './rate-limit.repository';
export { configWithDevIssuer, startDevOidcIssuer } from './dev-oidc-issuer';
export { hashPassword, verifyPassword } from './password';

/** How the auth plugin reads a request's session (the SQL lives in the sessions repository). */
export function sessionLoader(db: AppDb, revocations: SessionRevocations): SessionLoader {
  const repository = new SessionsRepository(db, revocations);
  return (tokenHash) => repository.confirm(tokenHash);
}

/**
 * Whether a session (by id) is still live, for the tokens and links that die with their session (streams,
 * previews, downloads): the session cache keeps the check off the database most of the time.
 */
export function liveSessionCheck(db: AppDb, cache: SessionCache): (sessionId: string) => Promise<boolean> {
  return (sessionId) => cache.isLive(sessionId, () => findLiveSession(db, sessionId, new Date()));
}

/**
 * Accounts: registration, sessions, password reset, social sign-in, preferences, settings (name, e-mail, password,
 * picture) and account deletion.
 */
export async function registerAuthModule(
  api: FastifyInstance,
  { config, database, services }: ModuleContext,
) {
  const db = database.db;
  const users = new UsersRepository(db, services.revocations);
  const profiles = new ProfileRepository(db);
  const rateLimits = new RateLimitService(new RateLimitRepository(db), () => new Date(), {
    [AUTH_RATE_LIMITS.register.name]: config.registerRateLimit,
  });
  const auth = new AuthService({
    users,
    profiles,
    sessions: new SessionsRepository(db, services.revocations),
    rateLimits,
    devices: new DeviceCookies(config.secretKey),
  });
  const resets = new PasswordResetService({
    users,
    resets: new PasswordResetsRepository(db, services.revocations),
    rateLimits,
    mailer: services.mailer,
    publicUrl: config.publicUrl,
    log: (): MailLog => api.log,
  });
  const accounts = new AccountService({
    users,
    rateLimits,
    outbox: new MailOutboxRepository(db),
    outboxDir: config.mail.outboxDir,
    erasure: services.accountErasure,
    // A deleted artist owner changes the catalogue's owner fields; the cached answers must not outlive it.
    onDeleted: () => services.changes.publish({ kind: 'catalog' }),
  });
  const oidc = new OidcService({
    providers: config.oidcProviders,
    publicUrl: config.publicUrl,
    secretKey: config.secretKey,
    allowHttpIssuers: !config.isProduction,
    users,
    auth,
  });
  const settings = new AccountSettingsService({
    users,
    profiles,
    rateLimits,
    tokens: new EmailChangeTokens(config.secretKey),
    mailer: services.mailer,
    mediaStore: services.mediaStore,
    publicUrl: config.publicUrl,
    log: () => api.log,
    now: services.clock,
  });
  const secureCookies = config.isProduction;

  await api.register(async (scope) => {
    await scope.register(authRoutes, { auth, resets, accounts, secureCookies });
    await scope.register(preferencesRoutes, { preferences: new PreferencesService({ profiles }) });
    await scope.register(settingsRoutes, {
      settings,
      dataDir: config.dataDir,
      uploadLimits: config.uploadLimits,
    });
    await scope.register(oidcRoutes, { oidc, publicUrl: config.publicUrl, secureCookies });
  });
  // Reset mail is sent after the reply; shutdown waits for it.
  api.addHook('onClose', () => resets.settled());
}
