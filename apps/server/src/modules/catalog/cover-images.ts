import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MediaStore } from '../../storage';
import type { CoverKind } from '../../platform/media-url';
import { makeWebpVariants } from '../media';

const SIZES = [160, 320, 640];
/** The variant whose key is stored and shown; the smaller ones sit beside it (`cover-160.webp`, ...). */
const MAIN_SIZE = 640;

/**
 * Converts an image (checked by content) into square WebP variants under a fresh `images/<kind>/<version>/`
 * prefix and returns the key of the main variant. Throws MediaError NOT_AN_IMAGE for anything else.
 */
export async function storeCoverImage(store: MediaStore, file: string, kind: CoverKind): Promise<string> {
  const work = await mkdtemp(path.join(tmpdir(), 'backbeat-cover-'));
  try {
    const names = await makeWebpVariants(file, work, 'cover', SIZES);
    const prefix = `images/${kind}/${randomBytes(8).toString('hex')}`;
    try {
      await store.put(prefix, work);
    } catch (error) {
      // A copy that failed half-way (a full disk) must not leave a partial image behind.
      await store.removePrefix(prefix).catch(() => undefined);
      throw error;
    }
    return `${prefix}/${names[MAIN_SIZE]}`;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
