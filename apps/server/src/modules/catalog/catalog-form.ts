import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { UPLOAD_LIMITS } from '../../app';
import { receiveForm, type FileRule, type ReceivedForm } from './upload-form';

/**
 * File fields of each catalogue form (SPEC section 3) and their limits. Functions, not constants: app.ts imports
 * the modules, so its UPLOAD_LIMITS is only initialised once this module has loaded.
 */
export const songFiles = (): Record<string, FileRule> => ({
  audio: { kind: 'audio', maxBytes: UPLOAD_LIMITS.audioBytes },
  coverImage: { kind: 'image', maxBytes: UPLOAD_LIMITS.imageBytes },
});
export const albumFiles = (): Record<string, FileRule> => ({
  cover: { kind: 'image', maxBytes: UPLOAD_LIMITS.imageBytes },
});
export const artistFiles = (): Record<string, FileRule> => ({
  image: { kind: 'image', maxBytes: UPLOAD_LIMITS.imageBytes },
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
