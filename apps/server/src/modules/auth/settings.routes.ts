import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ChangeEmailBody,
  ChangePasswordBody,
  ChangePasswordResponse,
  ConfirmEmailBody,
  ConfirmEmailResponse,
  ErrorResponse,
  MessageResponse,
  ProfileResponse,
  UpdateProfileBody,
} from '@backbeat/contract';
import type { UploadLimits } from '../../config';
import { requireUser } from '../../platform/auth';
import { errorAnswers, routeGroup } from '../../platform/route-docs';
import { acceptForms, UPLOAD_ERROR_RESPONSES, withForm } from '../catalog';
import type { AccountSettingsService } from './account-settings.service';
import { requestMeta } from './request-meta';

export interface SettingsRoutesOptions {
  settings: AccountSettingsService;
  dataDir: string;
  uploadLimits: UploadLimits;
}

const errors = errorAnswers(400, 401, 403, 429);
const route = routeGroup(['users'], errors);
const upload = routeGroup(['users'], { ...errors, ...UPLOAD_ERROR_RESPONSES });

/** The account settings of the signed-in person (the web app's /settings), under /users. */
export const settingsRoutes: FastifyPluginAsyncZod<SettingsRoutesOptions> = async (app, options) => {
  const { settings, dataDir, uploadLimits } = options;
  await acceptForms(app, uploadLimits);

  app.patch(
    '/users/me',
    route({ summary: 'Change the display name', body: UpdateProfileBody }, { 200: ProfileResponse }),
    async (request) => ({
      message: 'Name updated',
      user: await settings.rename(await requireUser(request), request.body.name),
    }),
  );

  app.post(
    '/users/me/email',
    route(
      {
        summary:
          'Start an e-mail change: a signed link, valid 24 hours, goes to the new address; the address changes when it is used',
        body: ChangeEmailBody,
      },
      { 202: MessageResponse, 409: ErrorResponse },
    ),
    async (request, reply) => {
      const { email, password } = request.body;
      const message = await settings.requestEmailChange(await requireUser(request), email, password);
      return reply.status(202).send({ message });
    },
  );

  app.post(
    '/users/email/confirm',
    route(
      {
        summary: 'Confirm an e-mail change with the mailed link (no session needed); the old address is told',
        body: ConfirmEmailBody,
      },
      { 200: ConfirmEmailResponse, 409: ErrorResponse },
    ),
    async (request) =>
      settings.confirmEmailChange(request.body.token, request.body.email, requestMeta(request)),
  );

  app.put(
    '/users/me/password',
    route(
      {
        summary: 'Change the password (the current one is required); every other session ends',
        body: ChangePasswordBody,
      },
      { 200: ChangePasswordResponse },
    ),
    async (request) => {
      const { currentPassword, newPassword } = request.body;
      return settings.changePassword(await requireUser(request), currentPassword, newPassword);
    },
  );

  app.put(
    '/users/me/avatar',
    upload(
      {
        summary: 'Upload a profile picture (multipart: image; JPEG, PNG, WebP, GIF or AVIF)',
        consumes: ['multipart/form-data'],
      },
      { 200: ProfileResponse },
    ),
    async (request) => {
      const user = await requireUser(request);
      const rules = { image: { kind: 'image' as const, maxBytes: uploadLimits.imageBytes } };
      const updated = await withForm(request, dataDir, rules, (form) =>
        settings.setAvatar(user, form.files.image),
      );
      return { message: 'Profile picture updated', user: updated };
    },
  );

  app.delete(
    '/users/me/avatar',
    route({ summary: 'Remove the profile picture' }, { 200: ProfileResponse }),
    async (request) => ({
      message: 'Profile picture removed',
      user: await settings.removeAvatar(await requireUser(request)),
    }),
  );
};
