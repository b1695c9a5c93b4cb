import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UploadLimits } from '../../config';
import { ErrorResponse } from '@backbeat/contract';
import { AppError, badRequest } from '../../platform/errors';
import { findInvalidText, INVALID_TEXT } from '../../platform/text-input';
import { createScratchDir } from '../../storage';
import { sniffAudioMagic, sniffImageMagic } from '../media';

/**
 * Lets the routes of the calling plugin's scope read multipart forms (`receiveForm`): registered only in the scopes
 * of routes that take a form, never app-wide. @fastify/multipart adds an async onRequest and onResponse hook to
 * every route of its scope (a 'close' listener, the response's 'finish' listeners and two promise hops per
 * request), which every other answer would pay for: a cached song list or a stream key spent about a tenth of
 * its CPU there. Large bodies are streamed by the parser, never buffered; each form field then applies its own
 * kind's limit (catalog-form.ts).
 */
export function acceptForms(scope: FastifyInstance, limits: UploadLimits) {
  return scope.register(multipart, {
    limits: {
      fileSize: Math.max(limits.audioBytes, limits.imageBytes),
      files: 4,
      fields: 40,
      fieldSize: 64 * 1024,
    },
  });
}

/**
 * What an upload route can answer besides its own errors: 413 too large, 415 not the file type, 422 not decodable,
 * 507 STORAGE_FULL when the disk holding uploads and media is full (nothing is kept; see platform/storage-full.ts).
 */
export const UPLOAD_ERROR_RESPONSES = {
  413: ErrorResponse,
  415: ErrorResponse,
  422: ErrorResponse,
  507: ErrorResponse,
};

export type UploadKind = 'audio' | 'image';

export interface FileRule {
  kind: UploadKind;
  maxBytes: number;
}

/** A file part written to a temporary file; its first bytes already passed the content check. */
export interface ReceivedFile {
  field: string;
  path: string;
  size: number;
}

export interface ReceivedForm {
  /** Text fields: a string, or a list when the name repeats (`songs`, `songs[]`). */
  fields: Record<string, string | string[]>;
  files: Partial<Record<string, ReceivedFile>>;
  /** Removes the temporary files; call it in `finally`. */
  dispose(): Promise<void>;
}

const SNIFF_BYTES = 64;
const megabytes = (bytes: number) => Math.round(bytes / (1024 * 1024));
const tooLarge = (field: string, maxBytes: number) =>
  new AppError(413, 'FILE_TOO_LARGE', `${field}: the file is larger than ${megabytes(maxBytes)} MB`);

function notMedia(field: string, kind: UploadKind) {
  return new AppError(
    415,
    'UNSUPPORTED_MEDIA_TYPE',
    kind === 'audio'
      ? `${field}: the file is not audio (MP3, AAC, M4A, WAV, FLAC, OGG, AIFF or WebM)`
      : `${field}: the file is not an image (JPEG, PNG, WebP, GIF or AVIF)`,
  );
}

function contentLooksRight(kind: UploadKind, head: Buffer) {
  return kind === 'audio' ? sniffAudioMagic(head) : sniffImageMagic(head) !== null;
}

/**
 * Counts bytes, enforces the size limit and checks the first bytes (by content, never by name) while the file
 * streams to disk, so an oversized or wrong upload is refused without being stored in full.
 */
class UploadGuard extends Transform {
  size = 0;
  private head: Buffer = Buffer.alloc(0);
  private checked = false;

  constructor(
    private readonly field: string,
    private readonly rule: FileRule,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
    this.size += chunk.length;
    if (this.size > this.rule.maxBytes) return done(tooLarge(this.field, this.rule.maxBytes));
    if (!this.checked) {
      this.head = Buffer.concat([this.head, chunk]).subarray(0, SNIFF_BYTES);
      if (this.head.length >= SNIFF_BYTES && !this.check()) return done(notMedia(this.field, this.rule.kind));
    }
    done(null, chunk);
  }

  override _flush(done: TransformCallback) {
    if (this.size > 0 && !this.checked && !this.check()) return done(notMedia(this.field, this.rule.kind));
    done();
  }

  private check() {
    this.checked = true;
    return contentLooksRight(this.rule.kind, this.head);
  }
}

function addField(fields: Record<string, string | string[]>, rawName: string, value: string) {
  const name = rawName.endsWith('[]') ? rawName.slice(0, -2) : rawName;
  const previous = fields[name];
  if (previous === undefined) fields[name] = rawName.endsWith('[]') ? [value] : value;
  else fields[name] = Array.isArray(previous) ? [...previous, value] : [previous, value];
}

/** A JSON body (no files) as form fields; numbers and booleans keep their type for the zod schemas. */
function fieldsFromJson(body: unknown): Record<string, string | string[]> {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body))
    throw badRequest('The body must be a form or a JSON object');
  return body as Record<string, string | string[]>;
}

/**
 * Reads a multipart form by streaming: text fields into memory (64 KB each at most), each expected file part to
 * its own temporary file under `tmpRoot`. A JSON body is accepted too, without files.
 */
export async function receiveForm(
  request: FastifyRequest,
  rules: Record<string, FileRule>,
  tmpRoot: string,
): Promise<ReceivedForm> {
  if (!request.isMultipart()) {
    return { fields: fieldsFromJson(request.body), files: {}, dispose: () => Promise.resolve() };
  }
  // Owned by this process: if it is killed mid-upload, the next start removes the partial file.
  const dir = await createScratchDir(tmpRoot, 'upload');
  const dispose = () => rm(dir, { recursive: true, force: true });
  const fields: Record<string, string | string[]> = {};
  const files: Partial<Record<string, ReceivedFile>> = {};
  const largest = Math.max(...Object.values(rules).map((rule) => rule.maxBytes));
  try {
    // One byte over the largest limit reaches the guard, which answers 413 with the field's own limit.
    for await (const part of request.parts({ limits: { fileSize: largest + 1 } })) {
      if (part.type === 'field') {
        if (part.valueTruncated) throw badRequest(`${part.fieldname}: is too long`);
        const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        // Form fields are not seen by the app-wide text check (it runs before the parts are read).
        const invalid = findInvalidText({ [part.fieldname]: value }, 'form');
        if (invalid) throw badRequest(`${part.fieldname}: ${invalid.problem}`, INVALID_TEXT);
        addField(fields, part.fieldname, value);
        continue;
      }
      const rule = rules[part.fieldname];
      if (!rule || files[part.fieldname]) {
        part.file.resume();
        throw badRequest(`${part.fieldname}: ${rule ? 'send one file only' : 'unexpected file'}`);
      }
      const target = path.join(dir, randomUUID());
      const guard = new UploadGuard(part.fieldname, rule);
      await pipeline(part.file, guard, createWriteStream(target));
      // Browsers send an empty, nameless part for a file input left empty.
      if (guard.size === 0 && !part.filename) continue;
      if (guard.size === 0) throw badRequest(`${part.fieldname}: the file is empty`);
      files[part.fieldname] = { field: part.fieldname, path: target, size: guard.size };
    }
  } catch (error) {
    await dispose();
    throw error;
  }
  return { fields, files, dispose };
}
