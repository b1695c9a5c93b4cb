import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { escapeXml, wrapTitle } from './cover-svg';
import { generateCoverArt, generatePortraitArt, makeWebpVariants } from './images';
import { portraitSvg } from './portrait-svg';
import { useTempDir } from './test-support';

const tempDir = useTempDir('images');
let dir: string;

beforeAll(async () => {
  dir = tempDir();
});

describe('generateCoverArt', () => {
  it.each(['png', 'webp'])('writes a 1000x1000 %s, escaping markup in the title', async (format) => {
    const outFile = path.join(dir, `cover.${format}`);
    await generateCoverArt({ seed: 5, title: 'Rock & Roll <Live> "Encore"', subtitle: "Jo's Band", outFile });
    expect(await sharp(outFile).metadata()).toMatchObject({ format, width: 1000, height: 1000 });
  });

  it('draws different covers for different seeds', async () => {
    const [a, b] = await Promise.all(
      [1, 2].map(async (seed) => {
        const outFile = path.join(dir, `seed-${seed}.png`);
        await generateCoverArt({ seed, title: 'Same Title', outFile });
        return sharp(outFile).resize(8, 8).raw().toBuffer();
      }),
    );
    expect(a?.equals(b as Buffer)).toBe(false);
  });

  it('refuses an unknown output format', async () => {
    await expect(
      generateCoverArt({ seed: 1, title: 'x', outFile: path.join(dir, 'cover.tiff') }),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});

describe('generatePortraitArt', () => {
  it('writes a 1000x1000 artist picture without text, different per seed', async () => {
    const files = await Promise.all(
      [1000, 1001].map(async (seed) => {
        const outFile = path.join(dir, `portrait-${seed}.webp`);
        await generatePortraitArt({ seed, outFile });
        return outFile;
      }),
    );
    expect(await sharp(files[0]).metadata()).toMatchObject({ format: 'webp', width: 1000, height: 1000 });
    const [a, b] = await Promise.all(files.map((file) => sharp(file).resize(8, 8).raw().toBuffer()));
    expect(a?.equals(b as Buffer)).toBe(false);
    for (let seed = 0; seed < 30; seed++) expect(portraitSvg(seed)).not.toMatch(/<text/);
  });

  it('keeps the art inside the circle the picture is shown in: the corners are plain background', async () => {
    for (const seed of [3, 4, 5, 6, 7, 8]) {
      const { data, info } = await sharp(Buffer.from(portraitSvg(seed)))
        .raw()
        .toBuffer({ resolveWithObject: true });
      const pixel = (x: number, y: number) => {
        const at = (y * info.width + x) * info.channels;
        return [...data.subarray(at, at + 3)];
      };
      // Corners outside the inscribed circle hold only the radial gradient, so mirrored corners match.
      expect(pixel(5, 5)).toEqual(pixel(994, 994));
      expect(pixel(994, 5)).toEqual(pixel(5, 994));
    }
  });
});

describe('cover text', () => {
  it('escapes XML and drops control characters', () => {
    expect(escapeXml(`a&b<c>"d"'e'\u0007`)).toBe('a&amp;b&lt;c&gt;&quot;d&quot;&apos;e&apos;');
  });

  it('wraps long titles into at most three lines, with an ellipsis when cut', () => {
    expect(wrapTitle('one two three', 8)).toEqual(['one two', 'three']);
    const lines = wrapTitle('a very long title that goes on and on and on forever', 10);
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatch(/…$/);
    expect(wrapTitle('Supercalifragilisticexpialidocious', 10)).toEqual(['Supercali…']);
  });
});

describe('makeWebpVariants', () => {
  it('makes square WebP files of each size from a non-square image', async () => {
    const input = path.join(dir, 'wide.jpg');
    await sharp({ create: { width: 900, height: 500, channels: 3, background: '#c33' } })
      .jpeg()
      .toFile(input);
    const names = await makeWebpVariants(input, dir, 'album-7');
    expect(names).toEqual({ 160: 'album-7-160.webp', 320: 'album-7-320.webp', 640: 'album-7-640.webp' });
    for (const [size, name] of Object.entries(names)) {
      expect(await sharp(path.join(dir, name)).metadata()).toMatchObject({
        format: 'webp',
        width: Number(size),
        height: Number(size),
      });
    }
  });

  it('rejects a file that is not an image', async () => {
    const input = path.join(dir, 'fake.png');
    await writeFile(input, 'definitely not a PNG');
    await expect(makeWebpVariants(input, dir, 'fake')).rejects.toMatchObject({
      code: 'NOT_AN_IMAGE',
      message: 'The file is not a supported image (JPEG, PNG, WebP, GIF or AVIF)',
    });
  });

  it('rejects a truncated image and SVG', async () => {
    const full = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#3c3' } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    const truncated = path.join(dir, 'truncated.png');
    await writeFile(truncated, full.subarray(0, 2000));
    await expect(makeWebpVariants(truncated, dir, 'truncated')).rejects.toMatchObject({
      code: 'NOT_AN_IMAGE',
    });

    const svg = path.join(dir, 'image.svg');
    await writeFile(svg, '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    await expect(makeWebpVariants(svg, dir, 'svg')).rejects.toMatchObject({ code: 'NOT_AN_IMAGE' });
  });

  it('refuses a base name that could leave the output folder', async () => {
    await expect(makeWebpVariants(path.join(dir, 'wide.jpg'), dir, '../escape')).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});
