import { createHash, type Hash } from 'node:crypto';

/**
 * The ETag S3 gives an object, computed from its bytes before or after an upload: the MD5 of the bytes for a
 * single-part upload, `md5(concat(part MD5s))-N` for a multipart upload of N parts. lib-storage's `Upload` puts a
 * body of at most one part size in one request and cuts a larger one into parts of exactly `partSize` bytes (the
 * last one shorter), so the ETag follows from the bytes and the part size alone.
 */
export class S3EtagHash {
  private readonly parts: Buffer[] = [];
  private part: Hash = createHash('md5');
  private inPart = 0;
  private size = 0;

  constructor(private readonly partSize: number) {}

  update(chunk: Buffer): this {
    let at = 0;
    while (at < chunk.length) {
      if (this.inPart === this.partSize) {
        this.parts.push(this.part.digest());
        this.part = createHash('md5');
        this.inPart = 0;
      }
      const take = Math.min(this.partSize - this.inPart, chunk.length - at);
      this.part.update(chunk.subarray(at, at + take));
      this.inPart += take;
      at += take;
    }
    this.size += chunk.length;
    return this;
  }

  /** The ETag, lower-case hex without quotes. */
  digest(): string {
    const last = this.part.digest();
    if (this.parts.length === 0) return last.toString('hex');
    const all = [...this.parts, last];
    return `${createHash('md5').update(Buffer.concat(all)).digest('hex')}-${all.length}`;
  }
}

/** The ETag of a stream's bytes uploaded with `partSize` parts. */
export async function s3EtagOf(body: AsyncIterable<unknown>, partSize: number): Promise<string> {
  const hash = new S3EtagHash(partSize);
  for await (const chunk of body) hash.update(chunk as Buffer);
  return hash.digest();
}

/** An ETag as listings and HEAD answer it (`"abc..."`), as this module writes it: lower-case, no quotes. */
export const normalEtag = (etag: string | undefined): string | undefined =>
  etag?.replaceAll('"', '').toLowerCase() || undefined;

/**
 * Whether an object's ETag can be recomputed from its bytes with this part size: an MD5 for a size of at most one
 * part, or `-N` with exactly the parts this part size gives. An object uploaded by another tool with other parts
 * (or encrypted with SSE-KMS, whose ETag is no MD5, which this cannot tell) is compared by size only.
 */
export function etagComputable(etag: string, size: number, partSize: number): boolean {
  const match = /^[0-9a-f]{32}(?:-(\d+))?$/.exec(etag);
  if (!match) return false;
  if (size <= partSize) return match[1] === undefined;
  return match[1] !== undefined && Number(match[1]) === Math.ceil(size / partSize);
}
