/**
 * AWS Signature Version 4 as Amazon S3 checks it, for the local S3 server (s3-local.ts): header and presigned-query
 * signatures recomputed with the AWS SDK's own signer (@smithy/signature-v4), dates, expiry and payload hashes.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';

const MAX_SKEW_MS = 15 * 60 * 1000;
const ALGORITHM = 'AWS4-HMAC-SHA256';
const LITERAL_HASH = /^[0-9a-f]{64}$/;

/** node:crypto behind the Checksum interface @smithy/signature-v4 asks for (SHA-256, or HMAC-SHA256 with a key). */
type Bytes = string | ArrayBuffer | ArrayBufferView;
const toBuffer = (data: Bytes) =>
  typeof data === 'string'
    ? Buffer.from(data)
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);

export class NodeSha256 {
  private hash;
  private readonly secret?: Buffer;
  constructor(secret?: Bytes) {
    this.secret = secret === undefined ? undefined : toBuffer(secret);
    this.hash = this.secret ? createHmac('sha256', this.secret) : createHash('sha256');
  }
  update(data: Bytes): void {
    this.hash.update(toBuffer(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
  reset(): void {
    this.hash = this.secret ? createHmac('sha256', this.secret) : createHash('sha256');
  }
}

export class S3Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function sendError(res: ServerResponse, error: S3Refusal): void {
  const requestId = randomBytes(8).toString('hex').toUpperCase();
  const escape = (text: string) =>
    text.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);
  res.writeHead(error.status, { 'content-type': 'application/xml', 'x-amz-request-id': requestId });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.code}</Code>` +
      `<Message>${escape(error.message)}</Message><RequestId>${requestId}</RequestId></Error>`,
  );
}

/** `20261128T103000Z` as a Date. */
function amzDate(value: string | undefined): Date {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? '');
  if (!match)
    throw new S3Refusal(403, 'AccessDenied', 'AWS authentication requires a valid Date or x-amz-date header');
  const [, y, mo, d, h, mi, s] = match;
  return new Date(Date.UTC(+y!, +mo! - 1, +d!, +h!, +mi!, +s!));
}

interface Credential {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
}

function parseCredential(value: string | undefined): Credential {
  const [accessKeyId, date, region, service, terminator] = (value ?? '').split('/');
  if (!accessKeyId || !date || !region || service !== 's3' || terminator !== 'aws4_request')
    throw new S3Refusal(
      400,
      'AuthorizationHeaderMalformed',
      `The authorization credential is malformed: ${value}`,
    );
  return { accessKeyId, date, region, service };
}

/**
 * The part of Amazon S3 that s3rver leaves out: authentication. Returns the signed literal payload hash the body must
 * match (null when the payload is unsigned or the request anonymous); throws the S3 error a real bucket would answer.
 */
export function sigV4Gate(options: {
  credentials: { accessKeyId: string; secretAccessKey: string };
  region: string;
  /** Path prefixes (`/<bucket>/<key prefix>`) anyone may GET or HEAD. */
  publicPrefixes: string[];
}): (req: IncomingMessage, url: URL) => Promise<string | null> {
  const { credentials, region, publicPrefixes } = options;
  const signer = new SignatureV4({
    credentials,
    region,
    service: 's3',
    sha256: NodeSha256,
    uriEscapePath: false,
  });
  /** Recomputes the request's signature as S3 would, from the headers it says it signed. */
  async function expectedSignature(req: IncomingMessage, url: URL, presigned: boolean): Promise<string> {
    const signedNames = (
      presigned ? url.searchParams.get('X-Amz-SignedHeaders') : authorizationField(req, 'SignedHeaders')
    )?.split(';');
    if (!signedNames?.includes('host'))
      throw new S3Refusal(403, 'AccessDenied', 'The host header must be signed');
    const headers: Record<string, string> = {};
    for (const name of signedNames) {
      const value = req.headers[name];
      if (value === undefined) throw new S3Refusal(403, 'AccessDenied', `Signed header ${name} is missing`);
      headers[name] = Array.isArray(value) ? value.join(',') : value;
    }
    const query: Record<string, string | string[]> = {};
    for (const [name, value] of url.searchParams) {
      if (presigned && name === 'X-Amz-Signature') continue;
      const existing = query[name];
      query[name] = existing === undefined ? value : [...[existing].flat(), value];
    }
    // The path exactly as sent: S3 signs the URI-encoded path once (the SDK's uriEscapePath: false).
    const rawPath = (req.url ?? '/').split('?')[0]!;
    const request = new HttpRequest({
      method: req.method!,
      protocol: 'http:',
      hostname: '127.0.0.1',
      path: rawPath,
      query,
      headers,
    });
    const signingDate = amzDate(presigned ? url.searchParams.get('X-Amz-Date')! : headers['x-amz-date']);
    if (presigned) {
      // presign() writes the X-Amz-* authentication parameters itself; the payload of a presigned URL is unsigned
      // unless it says otherwise, and that hash is not a signed header.
      const authParams = [
        'X-Amz-Algorithm',
        'X-Amz-Credential',
        'X-Amz-Date',
        'X-Amz-Expires',
        'X-Amz-SignedHeaders',
      ];
      const payload = url.searchParams.get('X-Amz-Content-Sha256') ?? 'UNSIGNED-PAYLOAD';
      const bare = new HttpRequest({
        ...request,
        headers: { ...headers, 'x-amz-content-sha256': payload },
        query: Object.fromEntries(Object.entries(query).filter(([name]) => !authParams.includes(name))),
      });
      const signed = await signer.presign(bare, {
        signingDate,
        expiresIn: Number(url.searchParams.get('X-Amz-Expires')),
        signableHeaders: new Set(signedNames),
        unsignableHeaders: new Set(['x-amz-content-sha256'].filter((name) => !signedNames.includes(name))),
        unhoistableHeaders: new Set(['x-amz-content-sha256', ...signedNames]),
      });
      return String(signed.query?.['X-Amz-Signature'] ?? '');
    }
    const signed = await signer.sign(request, { signingDate, signableHeaders: new Set(signedNames) });
    return /Signature=([0-9a-f]{64})/.exec(signed.headers.authorization ?? '')?.[1] ?? '';
  }

  function authorizationField(req: IncomingMessage, field: string): string | undefined {
    return new RegExp(`${field}=([^,\\s]+)`).exec(req.headers.authorization ?? '')?.[1];
  }

  /** Throws the S3 error a real bucket would answer; returns the signed payload hash to check, if any. */
  async function authenticate(req: IncomingMessage, url: URL): Promise<string | null> {
    const presigned = url.searchParams.get('X-Amz-Algorithm');
    const header = req.headers.authorization;
    if (!header && !presigned) {
      // A CORS preflight is never signed: S3 answers it from the bucket's CORS configuration (s3rver does here).
      if (req.method === 'OPTIONS') return null;
      const readOnly = req.method === 'GET' || req.method === 'HEAD';
      if (readOnly && publicPrefixes.some((prefix) => url.pathname.startsWith(prefix))) return null;
      throw new S3Refusal(403, 'AccessDenied', 'Access Denied');
    }
    if (header && presigned) throw new S3Refusal(400, 'InvalidArgument', 'Only one auth mechanism allowed');
    if ((header && !header.startsWith(`${ALGORITHM} `)) || (presigned && presigned !== ALGORITHM))
      throw new S3Refusal(
        400,
        'InvalidArgument',
        `Unsupported authorization type; this store speaks ${ALGORITHM}`,
      );
    const credential = parseCredential(
      presigned
        ? (url.searchParams.get('X-Amz-Credential') ?? undefined)
        : authorizationField(req, 'Credential'),
    );
    if (credential.accessKeyId !== credentials.accessKeyId)
      throw new S3Refusal(
        403,
        'InvalidAccessKeyId',
        'The AWS Access Key Id you provided does not exist in our records.',
      );
    if (credential.region !== region)
      throw new S3Refusal(
        400,
        'AuthorizationHeaderMalformed',
        `the region '${credential.region}' is wrong; expecting '${region}'`,
      );
    const stamp = presigned
      ? (url.searchParams.get('X-Amz-Date') ?? undefined)
      : req.headers['x-amz-date']?.toString();
    const signedAt = amzDate(stamp);
    if (credential.date !== stamp?.slice(0, 8))
      throw new S3Refusal(
        400,
        'AuthorizationHeaderMalformed',
        'The credential date does not match the request date',
      );
    const now = Date.now();
    if (presigned) {
      const expires = Number(url.searchParams.get('X-Amz-Expires'));
      if (!Number.isInteger(expires) || expires < 1 || expires > 604_800)
        throw new S3Refusal(
          400,
          'AuthorizationQueryParametersError',
          'X-Amz-Expires must be 1 to 604800 seconds',
        );
      if (now > signedAt.getTime() + expires * 1000)
        throw new S3Refusal(403, 'AccessDenied', 'Request has expired');
    } else if (Math.abs(now - signedAt.getTime()) > MAX_SKEW_MS) {
      throw new S3Refusal(
        403,
        'RequestTimeTooSkewed',
        'The difference between the request time and the current time is too large.',
      );
    }
    const provided = presigned
      ? url.searchParams.get('X-Amz-Signature')
      : authorizationField(req, 'Signature');
    const expected = await expectedSignature(req, url, Boolean(presigned));
    if (
      !provided ||
      provided.length !== expected.length ||
      !timingSafeEqual(Buffer.from(provided), Buffer.from(expected))
    )
      throw new S3Refusal(
        403,
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
      );
    const payloadHash = req.headers['x-amz-content-sha256'];
    if (!presigned && typeof payloadHash !== 'string')
      throw new S3Refusal(
        400,
        'InvalidRequest',
        'Missing required header for this request: x-amz-content-sha256',
      );
    return typeof payloadHash === 'string' && LITERAL_HASH.test(payloadHash) ? payloadHash : null;
  }

  return authenticate;
}
