import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import type { UploadLimits } from '../../config';
import { receiveForm, type FileRule, type ReceivedForm } from './upload-form';

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
