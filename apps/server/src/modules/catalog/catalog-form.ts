import path from 'node:path';
import { IdParams } from '@backbeat/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { UploadLimits } from '../../config';
import { requireRole } from '../../platform/auth';
import { routeGroup } from '../../platform/route-docs';
import { CATALOG_EDITOR_ROLES, type Viewer } from '../access';
import {
  acceptForms,
  UPLOAD_ERROR_RESPONSES,
  receiveForm,
  type FileRule,
  type ReceivedForm,
} from './upload-form';

/** File fields of each catalogue form (SPEC section 3) and their limits (`config.uploadLimits`). */
export const songFiles = (limits: UploadLimits): Record<string, FileRule> => ({
  audio: { kind: 'audio', maxBytes: limits.audioBytes },
  coverImage: { kind: 'image', maxBytes: limits.imageBytes },
});
export const albumFiles = (limits: UploadLimits): Record<string, FileRule> => ({
  cover: { kind: 'image', maxBytes: limits.imageBytes },
});
export const artistFiles = (limits: UploadLimits): Record<string, FileRule> => ({
  image: { kind: 'image', maxBytes: limits.imageBytes },
});

/** Receives the form into `dataDir/tmp`, runs `work`, and always removes the temporary files. */
export async function withForm<T>(
  request: FastifyRequest,
  dataDir: string,
  rules: Record<string, FileRule>,
  work: (form: ReceivedForm) => Promise<T>,
): Promise<T> {
  const form = await receiveForm(request, rules, path.join(dataDir, 'tmp'));
  try {
    return await work(form);
  } finally {
    await form.dispose();
  }
}

/** A catalogue entry's writes that take a form: songs, albums and artists alike. */
interface FormWrites {
  create(viewer: Viewer, form: ReceivedForm): Promise<unknown>;
  update(viewer: Viewer, id: string, form: ReceivedForm): Promise<unknown>;
}

export interface FormRoutes {
  /** `/songs`: POST there creates, PUT `/songs/:id` edits. */
  path: string;
  tags: string[];
  summary: { create: string; update?: string };
  /** What both answer: 201 on create, 200 on edit. */
  answer: z.ZodType;
  /** Error answers besides the upload ones (UPLOAD_ERROR_RESPONSES). */
  errors: object;
  /** The form's accepted content types. */
  consumes: string[];
  /** The form's file fields and their limits, from `uploadLimits`. */
  files: (limits: UploadLimits) => Record<string, FileRule>;
  uploadLimits: UploadLimits;
  dataDir: string;
  writes: FormWrites;
}

/**
 * POST `path` and PUT `path/:id` of one kind of catalogue entry, for catalogue editors: each receives the form
 * into `dataDir/tmp` (removed afterwards) and hands it to `writes`. The two routes sit in a scope of their own
 * with the form parser (`acceptForms`), so its hooks stay off the caller's other routes (the song lists).
 */
export async function registerFormRoutes(app: Parameters<FastifyPluginAsyncZod>[0], routes: FormRoutes) {
  await app.register(async (scope) => {
    await acceptForms(scope, routes.uploadLimits);
    formRoutes(scope, routes);
  });
}

function formRoutes(app: Parameters<FastifyPluginAsyncZod>[0], routes: FormRoutes) {
  const { path: url, summary, answer, consumes, dataDir, writes } = routes;
  const files = routes.files(routes.uploadLimits);
  const route = routeGroup(routes.tags, { ...routes.errors, ...UPLOAD_ERROR_RESPONSES });
  const editor = (request: FastifyRequest) => requireRole(request, ...CATALOG_EDITOR_ROLES);

  app.post(url, route({ summary: summary.create, consumes }, { 201: answer }), async (request, reply) => {
    const user = await editor(request);
    const result = await withForm(request, dataDir, files, (form) => writes.create(user, form));
    return reply.status(201).send(result);
  });

  app.put(
    `${url}/:id`,
    route(
      { ...(summary.update && { summary: summary.update }), consumes, params: IdParams },
      { 200: answer },
    ),
    async (request) => {
      const user = await editor(request);
      return withForm(request, dataDir, files, (form) => writes.update(user, request.params.id, form));
    },
  );
}
