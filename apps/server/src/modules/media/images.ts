import { open } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { coverSvg } from './cover-svg';
import { MediaError } from './errors';
import { portraitSvg } from './portrait-svg';
import { sniffImageMagic } from './sniff';

export interface CoverArtOptions {
  seed: number;
  title: string;
  subtitle?: string;
  /** `.png`, `.webp` or `.jpg`; the extension chooses the format. */
  outFile: string;
}

/** Generates a 1000x1000 demo cover from the seed and title (no image files needed in the repository). */
export function generateCoverArt(options: CoverArtOptions): Promise<void> {
  return renderSvg(coverSvg(options.seed, options.title, options.subtitle), options.outFile);
}

/**
 * Generates a 1000x1000 demo artist picture from the seed: centred art without text, made to be shown in a
 * circle. `outFile` as for generateCoverArt.
 */
export function generatePortraitArt(options: Omit<CoverArtOptions, 'title' | 'subtitle'>): Promise<void> {
  return renderSvg(portraitSvg(options.seed), options.outFile);
}

async function renderSvg(svg: string, outFile: string): Promise<void> {
  const image = sharp(Buffer.from(svg));
  const extension = path.extname(outFile).toLowerCase();
  const formats: Record<string, () => Sharp> = {
    '.png': () => image.png(),
    '.webp': () => image.webp({ quality: 88 }),
    '.jpg': () => image.jpeg({ quality: 88, mozjpeg: true }),
    '.jpeg': () => image.jpeg({ quality: 88, mozjpeg: true }),
  };
  const encode = formats[extension];
  if (!encode) {
    throw new MediaError(
      'INVALID_ARGUMENT',
      `Cover art must be .png, .webp or .jpg, not "${extension || 'none'}"`,
    );
  }
  await encode().toFile(outFile);
}

const NOT_AN_IMAGE = 'The file is not a supported image (JPEG, PNG, WebP, GIF or AVIF)';
// File names come from callers (ids); refuse anything that could leave outDir.
const SAFE_BASE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

async function readHead(file: string, bytes = 64): Promise<Buffer> {
  const handle = await open(file, 'r').catch((error: unknown) => {
    throw new MediaError('INPUT_NOT_FOUND', 'The image file does not exist', { cause: error });
  });
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Square WebP renditions `${baseName}-${size}.webp` (cover crop, EXIF orientation applied) in outDir.
 * Only JPEG, PNG, WebP, GIF and AVIF are accepted, recognised by content: SVG and other formats libvips can read
 * are refused on purpose. Resolves with the file names by size.
 */
export async function makeWebpVariants(
  input: string,
  outDir: string,
  baseName: string,
  sizes: number[] = [160, 320, 640],
): Promise<Record<number, string>> {
  if (!SAFE_BASE_NAME.test(baseName)) {
    throw new MediaError('INVALID_ARGUMENT', `Unsafe image base name "${baseName}"`);
  }
  if (sizes.some((size) => !Number.isInteger(size) || size < 1 || size > 4096)) {
    throw new MediaError('INVALID_ARGUMENT', 'Image sizes must be whole numbers from 1 to 4096');
  }
  if (sniffImageMagic(await readHead(input)) === null) throw new MediaError('NOT_AN_IMAGE', NOT_AN_IMAGE);

  // failOn 'error': a truncated or corrupt file is refused instead of producing a half-grey picture.
  const source = sharp(input, { failOn: 'error' }).rotate();
  const names: Record<number, string> = {};
  try {
    await source.metadata();
    for (const size of sizes) {
      const name = `${baseName}-${size}.webp`;
      await source
        .clone()
        .resize(size, size, { fit: 'cover' })
        .webp({ quality: 82 })
        .toFile(path.join(outDir, name));
      names[size] = name;
    }
  } catch (error) {
    throw new MediaError('NOT_AN_IMAGE', `The image could not be read: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return names;
}
