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
import { acceptForms, UPLOAD_ERROR_RESPONSES, withForm } from '../catalog';
import type { AccountSettingsService } from './account-settings.service';
import { requestMeta } from './request-meta';

export interface SettingsRoutesOptions {
  settings: AccountSettingsService;
  dataDir: string;
  uploadLimits: UploadLimits;
}

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse };

/** The account settings of the signed-in person (the web app's /settings), under /users. */
export const settingsRoutes: FastifyPluginAsyncZod<SettingsRoutesOptions> = async (app, options) => {
  const { settings, dataDir, uploadLimits } = options;
  const tags = ['users'];
  await acceptForms(app, uploadLimits);

  app.patch(
    '/users/me',
    {
      schema: {
        tags,
        summary: 'Change the display name',
        body: UpdateProfileBody,
        response: { 200: ProfileResponse, ...errors },
      },
    },
    async (request) => ({
      message: 'Name updated',
      user: await settings.rename(await requireUser(request), request.body.name),
    }),
  );

  app.post(
    '/users/me/email',
    {
      schema: {
        tags,
        summary:
          'Start an e-mail change: a signed link, valid 24 hours, goes to the new address; the address changes when it is used',
        body: ChangeEmailBody,
        response: { 202: MessageResponse, 409: ErrorResponse, ...errors },
      },
    },
    async (request, reply) => {
      const { email, password } = request.body;
      const message = await settings.requestEmailChange(await requireUser(request), email, password);
      return reply.status(202).send({ message });
    },
  );

  app.post(
    '/users/email/confirm',
    {
      schema: {
        tags,
        summary: 'Confirm an e-mail change with the mailed link (no session needed); the old address is told',
        body: ConfirmEmailBody,
        response: { 200: ConfirmEmailResponse, 409: ErrorResponse, ...errors },
      },
    },
    async (request) =>
      settings.confirmEmailChange(request.body.token, request.body.email, requestMeta(request)),
  );

  app.put(
    '/users/me/password',
    {
      schema: {
        tags,
        summary: 'Change the password (the current one is required); every other session ends',
        body: ChangePasswordBody,
        response: { 200: ChangePasswordResponse, ...errors },
      },
    },
    async (request) => {
      const { currentPassword, newPassword } = request.body;
      return settings.changePassword(await requireUser(request), currentPassword, newPassword);
    },
  );

  app.put(
    '/users/me/avatar',
    {
      schema: {
        tags,
        summary: 'Upload a profile picture (multipart: image; JPEG, PNG, WebP, GIF or AVIF)',
        consumes: ['multipart/form-data'],
        response: { 200: ProfileResponse, ...errors, ...UPLOAD_ERROR_RESPONSES },
      },
    },
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
    {
      schema: { tags, summary: 'Remove the profile picture', response: { 200: ProfileResponse, ...errors } },
    },
    async (request) => ({
      message: 'Profile picture removed',
      user: await settings.removeAvatar(await requireUser(request)),
    }),
  );
};
