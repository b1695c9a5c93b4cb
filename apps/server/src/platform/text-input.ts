import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from './errors';

/**
 * PostgreSQL text cannot hold U+0000 ("invalid byte sequence for encoding UTF8: 0x00"), and an unpaired surrogate
 * has no UTF-8 form at all (drivers silently turn it into U+FFFD). Either would reach the database as a 500 or as
 * quietly changed text, so every request is checked once, before validation and before any handler writes.
 */
const NUL = '\u0000';
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const INVALID_TEXT = 'INVALID_TEXT';

function textProblem(value: string): string | null {
  if (value.includes(NUL)) return 'must not contain the NUL character (U+0000)';
  if (LONE_SURROGATE.test(value)) return 'must not contain an unpaired UTF-16 surrogate';
  return null;
}

/**
 * Whether every key and value of a flat object of strings (path parameters, most query strings) is fine, without
 * allocating; undefined when the object is not flat (then the full walk decides).
 */
function flatTextIsValid(value: unknown): boolean | undefined {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'object' || Array.isArray(value) || Buffer.isBuffer(value)) return undefined;
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item !== 'string') return undefined;
    if (textProblem(key) || textProblem(item)) return false;
  }
  return true;
}

/** The first string (key or value) in `root` that PostgreSQL cannot store, with its path; null when all are fine. */
export function findInvalidText(root: unknown, rootPath: string): { path: string; problem: string } | null {
  if (flatTextIsValid(root) === true) return null;
  // Iterative: a deeply nested JSON body must not overflow the stack.
  const pending: Array<{ value: unknown; path: string }> = [{ value: root, path: rootPath }];
  while (pending.length > 0) {
    const { value, path } = pending.pop()!;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) return { path, problem };
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => pending.push({ value: item, path: `${path}.${index}` }));
    } else if (value !== null && typeof value === 'object' && !Buffer.isBuffer(value)) {
      for (const [key, item] of Object.entries(value)) {
        const keyProblem = textProblem(key);
        if (keyProblem) return { path: `${path} (a field name)`, problem: keyProblem };
        pending.push({ value: item, path: `${path}.${key}` });
      }
    }
  }
  return null;
}

const where = (found: { path: string }) => found.path.replace(/^(params|query|body)\./, '');

/** Checks path parameters, the query string and a parsed JSON body (raw webhook bodies are Buffers, left alone). */
export function assertValidText(request: Pick<FastifyRequest, 'params' | 'query' | 'body'>): void {
  for (const [part, value] of [
    ['params', request.params],
    ['query', request.query],
    ['body', request.body],
  ] as const) {
    const found = findInvalidText(value, part);
    if (found) {
      const field = found.path === part ? part : where(found);
      throw badRequest(`${field}: ${found.problem}`, INVALID_TEXT);
    }
  }
}

/** Checks every request; its 400 is documented on every route by `documentSharedResponses` (shared-responses.ts). */
export function registerTextInputCheck(app: FastifyInstance) {
  // Callback style: an async hook would cost every request a promise and a microtask for a check that is synchronous.
  app.addHook('preValidation', (request, _reply, done) => {
    try {
      assertValidText(request);
    } catch (error) {
      return done(error as Error);
    }
    done();
  });
}
