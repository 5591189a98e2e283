import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  applyModifiers,
  BIG_IMAGE_THRESHOLD,
  constrainDimensions,
  EDITABLE_TYPES,
  IMAGE_SIZES,
  ImageEditError,
  makeSize,
  normalizeOriginal,
  probeImage,
  resizeDimensions,
  sizedName,
  sizeSuffix,
  type ImageMeta,
  type SizeSpec,
} from '../../src/media/images.js';

type Format = 'png' | 'jpeg' | 'webp' | 'gif';
const MIME: Record<Format, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp', gif: 'image/gif' };

const RED = [255, 0, 0];
const BLUE = [0, 0, 255];

/** Raw RGB pixels: the top-left quadrant red, the rest blue, so every transform moves the red corner. */
function quadrant(width: number, height: number): Buffer {
  const buf = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const colour = x < width / 2 && y < height / 2 ? RED : BLUE;
      buf.set(colour, (y * width + x) * 3);
    }
  }
  return buf;
}

function encoded(raw: Buffer, width: number, height: number, format: Format): Promise<Buffer> {
  return sharp(raw, { raw: { width, height, channels: 3 } }).toFormat(format).toBuffer();
}

async function pixels(buffer: Buffer) {
  const { data, info } = await sharp(buffer).raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x + 1) * info.channels)];
  return { width: info.width, height: info.height, channels: info.channels, at };
}

// Lossy encoders shift colours a little; a pixel is "red" or "blue" when it is clearly that colour.
const isRed = (px: number[]) => px[0] > 200 && px[1] < 60 && px[2] < 60;
const isBlue = (px: number[]) => px[0] < 60 && px[1] < 60 && px[2] > 200;

/** Which corners are red, as a compact string: tl, tr, bl, br. */
async function redCorners(buffer: Buffer): Promise<string[]> {
  const p = await pixels(buffer);
  const inset = 2;
  const corners: Array<[string, number, number]> = [
    ['tl', inset, inset],
    ['tr', p.width - 1 - inset, inset],
    ['bl', inset, p.height - 1 - inset],
    ['br', p.width - 1 - inset, p.height - 1 - inset],
  ];
  for (const [, x, y] of corners) {
    const px = p.at(x, y);
    expect(isRed(px) || isBlue(px), `corner pixel ${px} is neither red nor blue`).toBe(true);
  }
  return corners.filter(([, x, y]) => isRed(p.at(x, y))).map(([name]) => name);
}

const DEFAULT_META: ImageMeta = {
  aperture: '0',
  credit: '',
  camera: '',
  caption: '',
  created_timestamp: '0',
  copyright: '',
  focal_length: '0',
  iso: '0',
  shutter_speed: '0',
  title: '',
  orientation: '0',
  keywords: [],
};

const size = (name: string): SizeSpec => IMAGE_SIZES.find((s) => s.name === name)!;

describe('IMAGE_SIZES and EDITABLE_TYPES', () => {
  it('lists WordPress’s default sub-sizes in order', () => {
    expect(IMAGE_SIZES.map((s) => [s.name, s.width, s.height, s.crop])).toEqual([
      ['thumbnail', 150, 150, true],
      ['medium', 300, 300, false],
      ['medium_large', 768, 0, false],
      ['large', 1024, 1024, false],
      ['1536x1536', 1536, 1536, false],
      ['2048x2048', 2048, 2048, false],
    ]);
    expect(BIG_IMAGE_THRESHOLD).toBe(2560);
  });

  it('can write the four web formats', () => {
    for (const mime of Object.values(MIME)) expect(EDITABLE_TYPES.has(mime)).toBe(true);
    expect(EDITABLE_TYPES.has('image/tiff')).toBe(false);
  });
});

describe('resizeDimensions', () => {
  it('makes WordPress’s default sizes of a 1920×1080 image', () => {
    const full = { left: 0, top: 0, width: 1920, height: 1080 };
    expect(resizeDimensions(1920, 1080, 150, 150, true)).toEqual({
      width: 150,
      height: 150,
      src: { left: 420, top: 0, width: 1080, height: 1080 },
    });
    expect(resizeDimensions(1920, 1080, 300, 300, false)).toEqual({ width: 300, height: 169, src: full });
    expect(resizeDimensions(1920, 1080, 768, 0, false)).toEqual({ width: 768, height: 432, src: full });
    expect(resizeDimensions(1920, 1080, 1024, 1024, false)).toEqual({ width: 1024, height: 576, src: full });
    expect(resizeDimensions(1920, 1080, 1536, 1536, false)).toEqual({ width: 1536, height: 864, src: full });
    expect(resizeDimensions(1920, 1080, 2048, 2048, false)).toBeNull();
  });

  it('fits portrait images by their height', () => {
    expect(resizeDimensions(1080, 1920, 1024, 1024, false)).toMatchObject({ width: 576, height: 1024 });
    expect(resizeDimensions(1080, 1920, 768, 0, false)).toMatchObject({ width: 768, height: 1365 });
    expect(resizeDimensions(1080, 1920, 150, 150, true)).toEqual({
      width: 150,
      height: 150,
      src: { left: 0, top: 420, width: 1080, height: 1080 },
    });
  });

  it('crops a small image only on the side that exceeds the box, and never upscales', () => {
    expect(resizeDimensions(200, 100, 150, 150, true)).toEqual({
      width: 150,
      height: 100,
      src: { left: 25, top: 0, width: 150, height: 100 },
    });
    expect(resizeDimensions(200, 100, 300, 300, false)).toBeNull();
    expect(resizeDimensions(200, 100, 768, 0, false)).toBeNull();
    expect(resizeDimensions(100, 100, 150, 150, true)).toBeNull();
    // 150 wide already: cropping to 150×100 would be the original itself.
    expect(resizeDimensions(150, 100, 150, 150, true)).toBeNull();
  });

  it('skips a size within a pixel of the original on both sides', () => {
    expect(resizeDimensions(301, 200, 300, 300, false)).toBeNull();
    expect(resizeDimensions(302, 200, 300, 300, false)).toEqual({
      width: 300,
      height: 199,
      src: { left: 0, top: 0, width: 302, height: 200 },
    });
  });

  it('derives an unlimited side of a crop from the aspect ratio', () => {
    expect(resizeDimensions(400, 300, 100, 0, true)).toEqual({
      width: 100,
      height: 75,
      src: { left: 0, top: 0, width: 400, height: 300 },
    });
  });

  it('rejects zero sizes', () => {
    expect(resizeDimensions(0, 100, 150, 150, false)).toBeNull();
    expect(resizeDimensions(100, 100, 0, 0, false)).toBeNull();
  });

  it('gives back the pixel rounding takes from a limited side, as wp_constrain_dimensions does', () => {
    // 151×152 scaled by 150/152 is 149.01 wide; WordPress bumps 149 to the box's 150.
    expect(constrainDimensions(151, 152, 150, 150)).toEqual([150, 150]);
    expect(constrainDimensions(640, 480, 320, 0)).toEqual([320, 240]);
    expect(constrainDimensions(640, 480, 0, 240)).toEqual([320, 240]);
    expect(constrainDimensions(640, 480)).toEqual([640, 480]);
    expect(constrainDimensions(100, 50, 300, 300)).toEqual([100, 50]);
  });
});

describe('probeImage', () => {
  it.each(['png', 'jpeg', 'webp', 'gif'] as Format[])('reads %s dimensions and type', async (format) => {
    const bytes = await encoded(quadrant(64, 32), 64, 32, format);
    const info = await probeImage(bytes);
    expect(info).toEqual({ width: 64, height: 32, orientation: 1, mime: MIME[format], imageMeta: DEFAULT_META });
  });

  it('reads a file path as well as bytes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'images-'));
    try {
      const path = join(dir, 'photo.png');
      await writeFile(path, await encoded(quadrant(30, 20), 30, 20, 'png'));
      expect(await probeImage(path)).toMatchObject({ width: 30, height: 20, mime: 'image/png' });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('swaps width and height for EXIF orientation 6', async () => {
    const jpeg = await sharp(quadrant(40, 20), { raw: { width: 40, height: 20, channels: 3 } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const info = await probeImage(jpeg);
    expect(info).toMatchObject({ width: 20, height: 40, orientation: 6, mime: 'image/jpeg' });
    expect(info.imageMeta.orientation).toBe('6');
  });

  it('fills image_meta from EXIF as WordPress reads it', async () => {
    const jpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#808080' } })
      .jpeg()
      .withExif({
        IFD0: { Model: 'Test Cam 5', Artist: 'Ann Example', Copyright: 'Ann Example 2024', ImageDescription: 'Harbour at dawn' },
        IFD2: {
          FNumber: '28/10',
          FocalLength: '50/1',
          ExposureTime: '1/250',
          ISOSpeedRatings: '200',
          DateTimeOriginal: '2024:01:31 10:15:30',
          DateTimeDigitized: '2024:01:31 10:15:30',
        },
      })
      .toBuffer();
    const { imageMeta } = await probeImage(jpeg);
    expect(imageMeta).toEqual({
      aperture: '2.8',
      credit: 'Ann Example',
      camera: 'Test Cam 5',
      caption: 'Harbour at dawn',
      created_timestamp: String(Date.UTC(2024, 0, 31, 10, 15, 30) / 1000),
      copyright: 'Ann Example 2024',
      focal_length: '50',
      iso: '200',
      shutter_speed: '0.004',
      title: 'Harbour at dawn',
      orientation: '1',
      keywords: [],
    });
  });

  it('keeps a long EXIF description as the caption only', async () => {
    const long = 'A long description of the picture that runs well past the eighty bytes WordPress allows a title';
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
      .jpeg()
      .withExif({ IFD0: { ImageDescription: long } })
      .toBuffer();
    const { imageMeta } = await probeImage(jpeg);
    expect(imageMeta.title).toBe('');
    expect(imageMeta.caption).toBe(long);
  });

  it('reads IPTC title, caption, credit, copyright, date and keywords', async () => {
    const dataset = (dataset: number, text: string) => {
      const data = Buffer.from(text, 'utf8');
      return Buffer.concat([Buffer.from([0x1c, 2, dataset, data.length >> 8, data.length & 0xff]), data]);
    };
    const iim = Buffer.concat([
      Buffer.from([0x1c, 1, 90, 0, 3, 0x1b, 0x25, 0x47]), // UTF-8
      dataset(5, 'Object name'),
      dataset(105, 'Headline wins'),
      dataset(120, 'The caption'),
      dataset(80, 'By Line'),
      dataset(116, '© Someone'),
      dataset(55, '20240131'),
      dataset(60, '101530+0100'),
      dataset(25, 'harbour'),
      dataset(25, 'dawn'),
    ]);
    const resource = Buffer.alloc(12);
    resource.write('8BIM', 0, 'latin1');
    resource.writeUInt16BE(0x0404, 4); // IPTC-NAA record
    resource.writeUInt16BE(0, 6); // empty name, padded
    resource.writeUInt32BE(iim.length, 8);
    const payload = Buffer.concat([Buffer.from('Photoshop 3.0\0', 'latin1'), resource, iim, Buffer.alloc(iim.length % 2)]);
    const marker = Buffer.from([0xff, 0xed, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]);
    const plain = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).jpeg().toBuffer();
    // APP13 goes straight after the start-of-image marker.
    const jpeg = Buffer.concat([plain.subarray(0, 2), marker, payload, plain.subarray(2)]);

    const { imageMeta } = await probeImage(jpeg);
    expect(imageMeta).toMatchObject({
      title: 'Headline wins',
      caption: 'The caption',
      credit: 'By Line',
      copyright: '© Someone',
      created_timestamp: String(Date.UTC(2024, 0, 31, 9, 15, 30) / 1000),
      keywords: ['harbour', 'dawn'],
    });
  });

  it('rejects bytes that are not an image', async () => {
    await expect(probeImage(Buffer.from('not an image at all'))).rejects.toThrow();
  });
});

describe('normalizeOriginal', () => {
  it('turns an orientation-6 JPEG upright: the red top-left corner moves to the top right', async () => {
    const jpeg = await sharp(quadrant(40, 20), { raw: { width: 40, height: 20, channels: 3 } })
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const info = await probeImage(jpeg);
    const result = await normalizeOriginal(jpeg, info);
    expect(result).toMatchObject({ width: 20, height: 40, rotated: true, scaled: false });
    expect(await redCorners(result!.buffer)).toEqual(['tr']);
    const meta = await sharp(result!.buffer).metadata();
    expect(meta.format).toBe('jpeg');
    // Stripped: no EXIF left to rotate it a second time.
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
  });

  it('scales a 3000×2000 JPEG to 2560×1707', async () => {
    const jpeg = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#3366cc' } }).jpeg().toBuffer();
    const info = await probeImage(jpeg);
    const result = await normalizeOriginal(jpeg, info);
    expect(result).toMatchObject({ width: 2560, height: 1707, rotated: false, scaled: true });
    const meta = await sharp(result!.buffer).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 2560, 1707]);
  });

  it('scales and rotates together, by the displayed size', async () => {
    const raw = quadrant(2000, 3000);
    const jpeg = await sharp(raw, { raw: { width: 2000, height: 3000, channels: 3 } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const info = await probeImage(jpeg);
    expect([info.width, info.height]).toEqual([3000, 2000]);
    const result = await normalizeOriginal(jpeg, info);
    expect(result).toMatchObject({ width: 2560, height: 1707, rotated: true, scaled: true });
    expect(await redCorners(result!.buffer)).toEqual(['tr']);
  });

  it('leaves an upright image within the threshold alone', async () => {
    const jpeg = await sharp({ create: { width: 2560, height: 1000, channels: 3, background: '#fff' } }).jpeg().toBuffer();
    expect(await normalizeOriginal(jpeg, await probeImage(jpeg))).toBeNull();
  });

  it('does not scale a big PNG, as WordPress does not', async () => {
    const png = await sharp({ create: { width: 3000, height: 100, channels: 3, background: '#fff' } }).png().toBuffer();
    expect(await normalizeOriginal(png, await probeImage(png))).toBeNull();
  });

  it('scales a big WebP and keeps it WebP', async () => {
    const webp = await sharp({ create: { width: 2600, height: 2600, channels: 3, background: '#0f0' } }).webp().toBuffer();
    const result = await normalizeOriginal(webp, await probeImage(webp));
    expect(result).toMatchObject({ width: 2560, height: 2560, scaled: true });
    expect((await sharp(result!.buffer).metadata()).format).toBe('webp');
  });
});

describe('makeSize', () => {
  let source: Buffer;
  beforeAll(async () => {
    source = await encoded(quadrant(1920, 1080), 1920, 1080, 'jpeg');
  });

  it.each([
    ['thumbnail', 150, 150],
    ['medium', 300, 169],
    ['medium_large', 768, 432],
    ['large', 1024, 576],
    ['1536x1536', 1536, 864],
  ])('makes %s at %i×%i', async (name, width, height) => {
    const result = await makeSize(source, size(name));
    expect(result).toMatchObject({ width, height });
    const meta = await sharp(result!.buffer).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', width, height]);
  });

  it('makes no 2048 size of a 1920 image', async () => {
    expect(await makeSize(source, size('2048x2048'))).toBeNull();
  });

  it('crops the thumbnail from the centre of the source', async () => {
    // The centred 1080×1080 square starts at x = 420: its left 540 px of the top half are red
    // (x 420–959), so the thumbnail's top-left is red and its top-right blue.
    const thumb = await makeSize(source, size('thumbnail'));
    const p = await pixels(thumb!.buffer);
    expect(isRed(p.at(5, 5))).toBe(true);
    expect(isRed(p.at(70, 5))).toBe(true);
    expect(isBlue(p.at(85, 5))).toBe(true);
    expect(isBlue(p.at(5, 144))).toBe(true);
  });

  it.each(['png', 'webp', 'gif'] as Format[])('keeps the %s format', async (format) => {
    const bytes = await encoded(quadrant(400, 200), 400, 200, format);
    const result = await makeSize(bytes, size('medium'));
    expect(result).toMatchObject({ width: 300, height: 150 });
    const meta = await sharp(result!.buffer).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual([format, 300, 150]);
    expect(await redCorners(result!.buffer)).toEqual(['tl']);
  });

  it('sizes an image with EXIF orientation as displayed', async () => {
    const jpeg = await sharp(quadrant(400, 200), { raw: { width: 400, height: 200, channels: 3 } })
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const thumb = await makeSize(jpeg, size('thumbnail'));
    expect(thumb).toMatchObject({ width: 150, height: 150 });
    // Upright it is 200×400 with red in the top-right quadrant; the centred 200×200 square
    // (y 100–299) has red in its top-right quarter only.
    expect(await redCorners(thumb!.buffer)).toEqual(['tr']);
    const medium = await makeSize(jpeg, size('medium'));
    expect(medium).toMatchObject({ width: 150, height: 300 });
  });

  it('keeps the alpha channel of a PNG', async () => {
    const png = await sharp({ create: { width: 600, height: 400, channels: 4, background: { r: 0, g: 128, b: 0, alpha: 0.5 } } })
      .png()
      .toBuffer();
    const result = await makeSize(png, size('medium'));
    const p = await pixels(result!.buffer);
    expect([p.width, p.height, p.channels]).toEqual([300, 200, 4]);
    expect(p.at(150, 100)[3]).toBeGreaterThan(120);
    expect(p.at(150, 100)[3]).toBeLessThan(135);
  });

  it('keeps an indexed PNG indexed', async () => {
    const png = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#123456' } }).png({ palette: true }).toBuffer();
    const result = await makeSize(png, size('medium'));
    const meta = await sharp(result!.buffer).metadata();
    expect([meta.width, meta.height, meta.isPalette]).toEqual([300, 200, true]);
    expect((await pixels(result!.buffer)).at(150, 100).slice(0, 3)).toEqual([0x12, 0x34, 0x56]);
  });

  it('sizes the first frame of an animated GIF', async () => {
    // Two 100×50 frames stacked: red, then blue.
    const frames = Buffer.alloc(100 * 100 * 3);
    for (let i = 0; i < 100 * 100; i++) frames.set(i < 100 * 50 ? RED : BLUE, i * 3);
    const gif = await sharp(frames, { raw: { width: 100, height: 100, channels: 3, pageHeight: 50 } }).gif().toBuffer();
    expect(await sharp(gif).metadata()).toMatchObject({ pages: 2 });
    const info = await probeImage(gif);
    expect([info.width, info.height]).toEqual([100, 50]);
    const thumb = await makeSize(gif, { name: 'small', width: 40, height: 40, crop: false });
    expect(thumb).toMatchObject({ width: 40, height: 20 });
    const p = await pixels(thumb!.buffer);
    expect(isRed(p.at(20, 10))).toBe(true);
  });
});

describe('applyModifiers', () => {
  let png: Buffer;
  beforeAll(async () => {
    png = await encoded(quadrant(400, 200), 400, 200, 'png');
  });

  it('rotates 90° clockwise: dimensions swap and the red corner goes to the top right', async () => {
    const result = await applyModifiers(png, [{ type: 'rotate', args: { angle: 90 } }]);
    expect([result.width, result.height]).toEqual([200, 400]);
    expect(await redCorners(result.buffer)).toEqual(['tr']);
    expect((await sharp(result.buffer).metadata()).format).toBe('png');
  });

  it('rotates 180 and 270 (and -90) exactly', async () => {
    const half = await applyModifiers(png, [{ type: 'rotate', args: { angle: 180 } }]);
    expect([half.width, half.height]).toEqual([400, 200]);
    expect(await redCorners(half.buffer)).toEqual(['br']);
    for (const angle of [270, -90]) {
      const result = await applyModifiers(png, [{ type: 'rotate', args: { angle } }]);
      expect([result.width, result.height]).toEqual([200, 400]);
      expect(await redCorners(result.buffer)).toEqual(['bl']);
    }
  });

  it('flips horizontally (left↔right) and vertically (top↔bottom)', async () => {
    const h = await applyModifiers(png, [{ type: 'flip', args: { flip: { horizontal: true, vertical: false } } }]);
    expect(await redCorners(h.buffer)).toEqual(['tr']);
    const v = await applyModifiers(png, [{ type: 'flip', args: { flip: { horizontal: false, vertical: true } } }]);
    expect(await redCorners(v.buffer)).toEqual(['bl']);
    const both = await applyModifiers(png, [{ type: 'flip', args: { flip: { horizontal: true, vertical: true } } }]);
    expect(await redCorners(both.buffer)).toEqual(['br']);
    expect([both.width, both.height]).toEqual([400, 200]);
  });

  it('crops by percentages: 50/50/50/50 of 400×200 is the bottom-right 200×100', async () => {
    const result = await applyModifiers(png, [{ type: 'crop', args: { left: 50, top: 50, width: 50, height: 50 } }]);
    expect([result.width, result.height]).toEqual([200, 100]);
    expect(await redCorners(result.buffer)).toEqual([]);
    // The top-left quarter instead is all red.
    const tl = await applyModifiers(png, [{ type: 'crop', args: { left: 0, top: 0, width: 50, height: 50 } }]);
    expect([tl.width, tl.height]).toEqual([200, 100]);
    expect(await redCorners(tl.buffer)).toEqual(['tl', 'tr', 'bl', 'br']);
  });

  it('rounds each crop value as WordPress does and clamps to the image', async () => {
    // 400 × 12.5% = 50, 200 × 33.3% = 66.6 → 67; width 90% (360) from x 50 overruns, so it stops at 400.
    const result = await applyModifiers(png, [{ type: 'crop', args: { left: 12.5, top: 33.3, width: 90, height: 50 } }]);
    expect([result.width, result.height]).toEqual([350, 100]);
    const p = await pixels(result.buffer);
    // Source x 50–199, y 67–99 is red: result x 0–149, y 0–32.
    expect(isRed(p.at(149, 32))).toBe(true);
    expect(isBlue(p.at(150, 32))).toBe(true);
    expect(isBlue(p.at(149, 33))).toBe(true);
  });

  it('treats a crop of the whole image as no crop', async () => {
    const result = await applyModifiers(png, [{ type: 'crop', args: { left: 0, top: 0, width: 100, height: 100 } }]);
    expect([result.width, result.height]).toEqual([400, 200]);
    expect(await redCorners(result.buffer)).toEqual(['tl']);
  });

  it('applies modifiers in order: rotate then crop differs from crop then rotate', async () => {
    const crop = { type: 'crop', args: { left: 0, top: 0, width: 50, height: 50 } } as const;
    const rotate = { type: 'rotate', args: { angle: 90 } } as const;
    // Rotated, the image is 200×400 with red at x 100–199, y 0–199; its top-left quarter is x 0–99, y 0–199: blue.
    const rotateThenCrop = await applyModifiers(png, [rotate, crop]);
    expect([rotateThenCrop.width, rotateThenCrop.height]).toEqual([100, 200]);
    expect(await redCorners(rotateThenCrop.buffer)).toEqual([]);
    // Cropped first, the top-left quarter is all red, and stays red when rotated.
    const cropThenRotate = await applyModifiers(png, [crop, rotate]);
    expect([cropThenRotate.width, cropThenRotate.height]).toEqual([100, 200]);
    expect(await redCorners(cropThenRotate.buffer)).toEqual(['tl', 'tr', 'bl', 'br']);
  });

  it('rotates by other angles onto a larger canvas: transparent for PNG, white for JPEG', async () => {
    const square = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#0000ff' } }).png().toBuffer();
    const result = await applyModifiers(square, [{ type: 'rotate', args: { angle: 45 } }]);
    expect(result.width).toBeGreaterThanOrEqual(141);
    expect(result.width).toBeLessThanOrEqual(143);
    const p = await pixels(result.buffer);
    expect(p.channels).toBe(4);
    expect(p.at(0, 0)[3]).toBe(0);
    expect(p.at(Math.floor(p.width / 2), Math.floor(p.height / 2))).toEqual([0, 0, 255, 255]);

    const jpeg = await sharp({ create: { width: 100, height: 100, channels: 3, background: '#0000ff' } }).jpeg().toBuffer();
    const rotated = await applyModifiers(jpeg, [{ type: 'rotate', args: { angle: 30 } }]);
    const q = await pixels(rotated.buffer);
    expect(q.channels).toBe(3);
    expect(q.at(0, 0).every((v) => v > 240)).toBe(true);
    expect(isBlue(q.at(Math.floor(q.width / 2), Math.floor(q.height / 2)))).toBe(true);
  });

  it('keeps JPEG, WebP and GIF in their formats', async () => {
    for (const format of ['jpeg', 'webp', 'gif'] as Format[]) {
      const bytes = await encoded(quadrant(400, 200), 400, 200, format);
      const result = await applyModifiers(bytes, [{ type: 'rotate', args: { angle: 90 } }]);
      expect((await sharp(result.buffer).metadata()).format).toBe(format);
      expect([result.width, result.height]).toEqual([200, 400]);
      expect(await redCorners(result.buffer)).toEqual(['tr']);
    }
  });

  it('edits an orientation-6 JPEG as it is displayed', async () => {
    const jpeg = await sharp(quadrant(400, 200), { raw: { width: 400, height: 200, channels: 3 } })
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toBuffer();
    // Displayed it is 200×400 with red top right; flipping left↔right brings red to the top left.
    const result = await applyModifiers(jpeg, [{ type: 'flip', args: { flip: { horizontal: true, vertical: false } } }]);
    expect([result.width, result.height]).toEqual([200, 400]);
    expect(await redCorners(result.buffer)).toEqual(['tl']);
  });

  it('fails an empty crop with rest_image_crop_failed', async () => {
    const attempt = applyModifiers(png, [{ type: 'crop', args: { left: 10, top: 10, width: 0, height: 50 } }]);
    await expect(attempt).rejects.toBeInstanceOf(ImageEditError);
    await expect(attempt).rejects.toMatchObject({ code: 'rest_image_crop_failed', status: 400 });
    // Wholly outside the image is empty too.
    await expect(
      applyModifiers(png, [{ type: 'crop', args: { left: 120, top: 0, width: 10, height: 10 } }]),
    ).rejects.toMatchObject({ code: 'rest_image_crop_failed' });
  });

  it('fails a non-numeric angle with rest_image_rotation_failed', async () => {
    const bad = [{ type: 'rotate', args: { angle: Number.NaN } }] as const;
    await expect(applyModifiers(png, [...bad])).rejects.toMatchObject({ code: 'rest_image_rotation_failed' });
  });

  it('fails input it cannot edit with rest_unknown_image_file_type', async () => {
    await expect(applyModifiers(Buffer.from('nope'), [])).rejects.toMatchObject({ code: 'rest_unknown_image_file_type' });
  });
});

describe('sizedName', () => {
  it('names sizes as WordPress does', () => {
    expect(sizedName('photo.jpg', sizeSuffix(150, 150))).toBe('photo-150x150.jpg');
    expect(sizedName('photo.jpg', 'scaled')).toBe('photo-scaled.jpg');
    expect(sizedName('2024/01/my.photo.png', '300x169')).toBe('2024/01/my.photo-300x169.png');
    expect(sizedName('2024.01/photo', 'rotated')).toBe('2024.01/photo-rotated');
  });
});
