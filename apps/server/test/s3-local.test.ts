import { createHash } from 'node:crypto';
import {
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { HttpRequest } from '@smithy/protocol-http';
import { SignatureV4 } from '@smithy/signature-v4';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeSha256, startLocalS3, type LocalS3 } from './s3-local';

/**
 * The local S3 server is only worth testing against if it refuses what Amazon S3 refuses: these are the answers
 * S3 documents for bad signatures, clocks, payloads and anonymous access, through the unmodified AWS SDK.
 */
let s3: LocalS3;
const clients: S3Client[] = [];

function clientWith(overrides: Partial<S3ClientConfig> = {}): S3Client {
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: s3.credentials,
    // One attempt: the SDK would otherwise retry a 503 and correct its clock after RequestTimeTooSkewed.
    maxAttempts: 1,
    ...overrides,
  });
  clients.push(client);
  return client;
}

async function refusal(promise: Promise<unknown>): Promise<{ name: string; status?: number }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof S3ServiceException)
      return { name: error.name, status: error.$metadata.httpStatusCode };
    throw error;
  }
  throw new Error('the request was accepted');
}

beforeAll(async () => {
  s3 = await startLocalS3({ publicPrefixes: ['segments/'] });
  await clientWith().send(
    new PutObjectCommand({ Bucket: s3.bucket, Key: 'private/master.flac', Body: 'master bytes' }),
  );
  await clientWith().send(
    new PutObjectCommand({ Bucket: s3.bucket, Key: 'segments/seg_0000.ts', Body: 'segment bytes' }),
  );
});

afterAll(async () => {
  for (const client of clients) client.destroy();
  await s3?.stop();
});

describe('local S3 server: signatures', () => {
  it('refuses a request signed with the wrong secret, and an access key it does not know', async () => {
    const wrongSecret = clientWith({
      credentials: { accessKeyId: s3.credentials.accessKeyId, secretAccessKey: 'not-the-secret' },
    });
    expect(
      await refusal(
        wrongSecret.send(new GetObjectCommand({ Bucket: s3.bucket, Key: 'private/master.flac' })),
      ),
    ).toEqual({ name: 'SignatureDoesNotMatch', status: 403 });
    const unknownKey = clientWith({
      credentials: { accessKeyId: 'AKIAUNKNOWN000000000', secretAccessKey: s3.credentials.secretAccessKey },
    });
    expect(
      await refusal(unknownKey.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'x', Body: 'x' }))),
    ).toEqual({ name: 'InvalidAccessKeyId', status: 403 });
  });

  it('refuses a request whose clock is more than 15 minutes off', async () => {
    const late = clientWith({ systemClockOffset: -20 * 60 * 1000 });
    expect(
      await refusal(late.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: 'private/master.flac' }))),
    ).toMatchObject({ status: 403 });
    const skewed = clientWith({ systemClockOffset: 20 * 60 * 1000 });
    expect(
      await refusal(skewed.send(new GetObjectCommand({ Bucket: s3.bucket, Key: 'private/master.flac' }))),
    ).toEqual({ name: 'RequestTimeTooSkewed', status: 403 });
  });

  it('refuses a body that is not the one signed, and stores nothing', async () => {
    // Signed as S3 asks (the payload's SHA-256 in a signed header), then sent with other bytes.
    const host = new URL(s3.endpoint).host;
    const signer = new SignatureV4({
      credentials: s3.credentials,
      region: s3.region,
      service: 's3',
      sha256: NodeSha256,
      uriEscapePath: false,
    });
    const signed = await signer.sign(
      new HttpRequest({
        method: 'PUT',
        protocol: 'http:',
        hostname: '127.0.0.1',
        path: `/${s3.bucket}/private/swapped`,
        headers: {
          host,
          'x-amz-content-sha256': createHash('sha256').update('the signed body').digest('hex'),
        },
      }),
    );
    const answer = await fetch(`${s3.endpoint}/${s3.bucket}/private/swapped`, {
      method: 'PUT',
      headers: signed.headers,
      body: 'a different body',
    });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('<Code>XAmzContentSHA256Mismatch</Code>');
    expect(
      await refusal(clientWith().send(new HeadObjectCommand({ Bucket: s3.bucket, Key: 'private/swapped' }))),
    ).toMatchObject({ status: 404 });
  });
});

describe('local S3 server: presigned URLs and anonymous reads', () => {
  it('serves a presigned GET, and refuses it once tampered with or expired', async () => {
    const client = clientWith();
    const command = new GetObjectCommand({ Bucket: s3.bucket, Key: 'private/master.flac' });
    const url = await getSignedUrl(client, command, { expiresIn: 60 });
    const ok = await fetch(url);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('master bytes');

    const tampered = url.replace('private/master.flac', 'segments/seg_0000.ts');
    expect((await fetch(tampered)).status).toBe(403);

    const expired = await getSignedUrl(client, command, {
      expiresIn: 60,
      signingDate: new Date(Date.now() - 2 * 60 * 60 * 1000),
    });
    const answer = await fetch(expired);
    expect(answer.status).toBe(403);
    expect(await answer.text()).toContain('Request has expired');
  });

  it('lets anyone read the public prefix and nothing else; nobody writes anonymously', async () => {
    expect((await fetch(`${s3.endpoint}/${s3.bucket}/segments/seg_0000.ts`)).status).toBe(200);
    const hidden = await fetch(`${s3.endpoint}/${s3.bucket}/private/master.flac`);
    expect(hidden.status).toBe(403);
    expect(await hidden.text()).toContain('<Code>AccessDenied</Code>');
    const write = await fetch(`${s3.endpoint}/${s3.bucket}/segments/forged.ts`, { method: 'PUT', body: 'x' });
    expect(write.status).toBe(403);
  });
});

describe('local S3 server: outages', () => {
  it('answers 503 while unavailable and serves again afterwards', async () => {
    const client = clientWith();
    s3.setAvailable(false);
    try {
      expect(
        await refusal(client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: 'private/master.flac' }))),
      ).toMatchObject({ status: 503 });
    } finally {
      s3.setAvailable(true);
    }
    const head = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: 'private/master.flac' }));
    expect(head.ContentLength).toBe('master bytes'.length);
  });
});

describe('local S3 server: CORS, for browsers reading the public prefix from another origin', () => {
  let withCors: LocalS3;
  const origin = 'http://127.0.0.1:5173';
  const preflight = (target: LocalS3, key: string, method: string, headers?: string) =>
    fetch(`${target.endpoint}/${target.bucket}/${key}`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': method,
        ...(headers ? { 'access-control-request-headers': headers } : {}),
      },
    });

  beforeAll(async () => {
    withCors = await startLocalS3({ publicPrefixes: ['segments/'], cors: {} });
    const client = new S3Client({
      endpoint: withCors.endpoint,
      region: withCors.region,
      forcePathStyle: true,
      credentials: withCors.credentials,
    });
    clients.push(client);
    for (const Key of ['segments/seg_0000.ts', 'private/enc.key'])
      await client.send(new PutObjectCommand({ Bucket: withCors.bucket, Key, Body: 'bytes' }));
  });

  afterAll(async () => {
    await withCors?.stop();
  });

  it('answers an anonymous GET of the public prefix with Access-Control-Allow-Origin', async () => {
    const answer = await fetch(`${withCors.endpoint}/${withCors.bucket}/segments/seg_0000.ts`, {
      headers: { origin },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(await answer.text()).toBe('bytes');
  });

  it('answers an unsigned preflight for GET from the rules, and refuses one for a method they do not allow', async () => {
    const allowed = await preflight(withCors, 'segments/seg_0000.ts', 'GET', 'range');
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('*');
    expect(allowed.headers.get('access-control-allow-methods')).toBe('GET, HEAD');
    expect(allowed.headers.get('access-control-allow-headers')).toBe('range');
    const refused = await preflight(withCors, 'segments/seg_0000.ts', 'PUT');
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('<Code>CORSResponse</Code>');
  });

  it('still refuses anonymous reads outside the public prefix, whatever the origin', async () => {
    const hidden = await fetch(`${withCors.endpoint}/${withCors.bucket}/private/enc.key`, {
      headers: { origin },
    });
    expect(hidden.status).toBe(403);
    expect(await hidden.text()).toContain('<Code>AccessDenied</Code>');
  });

  it('without a CORS configuration, a preflight is refused as S3 refuses it', async () => {
    const answer = await preflight(s3, 'segments/seg_0000.ts', 'GET');
    expect(answer.status).toBe(403);
    expect(await answer.text()).toContain('CORS is not enabled for this bucket.');
    const plain = await fetch(`${s3.endpoint}/${s3.bucket}/segments/seg_0000.ts`, { headers: { origin } });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('access-control-allow-origin')).toBeNull();
  });
});
