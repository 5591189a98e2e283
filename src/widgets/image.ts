// An image: a media-library attachment (its file, size, alternative text and sizes for srcset)
// or a plain URL, with a caption and an optional link.
import type { Context } from '../context.js';
import { readableRows } from '../content/service.js';
import { ATTACHED_FILE, IMAGE_ALT, attachmentMeta, folderOf, mediaMetaSelect, metaValue } from '../media/metadata.js';
import { defineWidget } from './define.js';
import { el, esc, style, voidEl } from './html.js';
import { ALIGN_OPTIONS } from './heading.js';

interface Picture { src: string; width?: number; height?: number; alt: string; srcset?: string }

/**
 * The attachment at a size (the full file when that size was not made), if it is an image the
 * caller may read; a hidden or missing one is no picture, so a preview never shows what its
 * reader could not open.
 */
export async function attachmentPicture(ctx: Context, id: number, size: string): Promise<Picture | null> {
  if (!id) return null;
  const row = await ctx.prisma.content.findUnique({
    where: { id },
    select: { id: true, type: true, status: true, authorId: true, parentId: true, mimeType: true, ...mediaMetaSelect },
  });
  if (!row || row.type !== 'attachment' || !row.mimeType.startsWith('image/')) return null;
  if (!(await readableRows(ctx, [row])).length) return null;
  const file = metaValue(row.meta, ATTACHED_FILE);
  if (!file) return null;
  const url = (key: string) => (ctx.media ? ctx.media.storage.url(key) : key);
  const meta = attachmentMeta(row.meta);
  const sized = size === 'full' ? undefined : meta.sizes?.[size];
  const candidates = [
    ...Object.values(meta.sizes ?? {}).map((s) => ({ url: url(folderOf(file) + s.file), width: s.width, height: s.height })),
    ...(meta.width && meta.height ? [{ url: url(file), width: meta.width, height: meta.height }] : []),
  ];
  const width = sized?.width ?? meta.width;
  const height = sized?.height ?? meta.height;
  // As wp_calculate_image_srcset: the sizes of the same shape as the one shown.
  const sameShape = width && height ? candidates.filter((c) => Math.abs(c.width / c.height - width / height) < 0.01) : [];
  return {
    src: sized ? url(folderOf(file) + sized.file) : url(file),
    width, height,
    alt: metaValue(row.meta, IMAGE_ALT) ?? '',
    srcset: sameShape.length > 1 ? sameShape.sort((a, b) => a.width - b.width).map((c) => `${c.url} ${c.width}w`).join(', ') : undefined,
  };
}

export const ImageWidget = defineWidget({
  name: 'Image_Widget',
  label: 'Image',
  description: 'An image from the media library or an address, with a caption and an optional link.',
  fields: {
    image: { type: 'media', label: 'Image', description: 'Media library id of the image.', default: 0 },
    image_url: { type: 'url', label: 'Image URL', description: 'Used when no media library image is chosen.', default: '' },
    size: {
      type: 'select', label: 'Size', default: 'full',
      options: [{ value: 'thumbnail', label: 'Thumbnail' }, { value: 'medium', label: 'Medium' }, { value: 'medium_large', label: 'Medium large' }, { value: 'large', label: 'Large' }, { value: 'full', label: 'Full size' }],
    },
    alt: { type: 'text', label: 'Alternative text', description: 'Leave empty to use the attachment\'s own.', default: '' },
    caption: { type: 'text', label: 'Caption', default: '' },
    link: { type: 'url', label: 'Link URL', default: '' },
    new_window: { type: 'checkbox', label: 'Open the link in a new window', default: false },
    align: { type: 'select', label: 'Alignment', default: 'center', options: ALIGN_OPTIONS },
  },
  render: async (s, r) => {
    const picture: Picture | null = (await attachmentPicture(r.ctx, s.image, s.size)) ?? (s.image_url ? { src: s.image_url, alt: '' } : null);
    if (!picture) return el('p', { class: 'widget-image-empty', style: style({ color: '#757575', 'font-style': 'italic' }) }, 'No image selected.');
    let image = voidEl('img', {
      src: picture.src,
      alt: s.alt || picture.alt,
      width: picture.width, height: picture.height,
      srcset: picture.srcset,
      sizes: picture.srcset && picture.width ? `(max-width: ${picture.width}px) 100vw, ${picture.width}px` : undefined,
      loading: 'lazy', decoding: 'async',
      style: style({ 'max-width': '100%', height: 'auto', display: 'inline-block' }),
    });
    if (s.link) {
      image = el('a', { href: s.link, target: s.new_window ? '_blank' : undefined, rel: s.new_window ? 'noopener noreferrer' : undefined }, image);
    }
    const caption = s.caption ? el('figcaption', { style: style({ 'font-size': '.875em', color: '#555555', 'margin-top': '.5em' }) }, esc(s.caption)) : '';
    return el('figure', { class: 'widget-image', style: style({ margin: '0', 'text-align': s.align }) }, image + caption);
  },
});
