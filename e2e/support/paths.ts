import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const e2eRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const repoRoot = path.resolve(e2eRoot, '..');
export const cacheRoot = path.join(e2eRoot, '.cache');
