import {
  fileExtension,
  formatFileSize,
  THUMBNAIL_MAX_IMAGE_BYTES,
  thumbnailSourceOf,
} from '@guildhall/common';
import type { Db } from '../../../db/index.ts';
import { findUserById } from '../../users/index.ts';
import type { FileSharesTable, FilesTable } from '../tables.ts';
import { findLiveShare, isLimitReached } from './service.ts';

/** The site's name in link previews (og:site_name, the oEmbed provider). */
export const SITE_NAME = 'Guildhall';

/** What a link preview (Discord, Slack, …) shows of a share. */
export type ShareUnfurl = {
  title: string;
  description: string;
  /** The share page's own address. */
  url: string;
  /** The oEmbed document's address. */
  oembedUrl: string;
  /** The thumbnail a crawler may fetch (images, video posters), or null. */
  image: string | null;
  sharedBy: string | null;
};

/**
 * The preview of a share, or null when the link must unfurl with no content: anything but a live,
 * public share without a password and with downloads left (a `user` share, a password, an expiry, a
 * reached limit, a revoked or malformed link all look alike: generic site title only). Reads only;
 * never counts a download.
 */
export async function shareUnfurl(
  db: Db,
  token: string,
  baseUrl: string,
  now: Date,
): Promise<ShareUnfurl | null> {
  let found: { share: FileSharesTable; file: FilesTable };
  try {
    found = await findLiveShare(db, token, now);
  } catch {
    return null;
  }
  const { share, file } = found;
  if (share.access_level !== 'public' || share.password_hash || isLimitReached(share)) return null;
  const sharer = share.created_by ? await findUserById(db, share.created_by) : undefined;
  const sharedBy = sharer ? sharer.global_name || sharer.username : null;
  const ext = fileExtension(file.name);
  const size = Number(file.size);
  const parts = [formatFileSize(size), ext ? `${ext.toUpperCase()} file` : 'File'];
  if (sharedBy) parts.push(`shared by ${sharedBy}`);
  const url = `${baseUrl}/shared/${share.token}`;
  const source = thumbnailSourceOf(file.name);
  // The share's thumbnail route: a WebP made from the file, never a download and never counted.
  const pictured =
    size > 0 && (source === 'video' || (source === 'image' && size <= THUMBNAIL_MAX_IMAGE_BYTES));
  return {
    title: share.title || file.name,
    description: parts.join(' · '),
    url,
    oembedUrl: `${baseUrl}/api/files/shared/${share.token}/oembed`,
    image: pictured ? `${baseUrl}/api/files/shared/${share.token}/thumbnail` : null,
    sharedBy,
  };
}

/** Text for an HTML attribute value or element body: `& < > " '` escaped. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The `<head>` tags of a share page: Open Graph, Twitter card, oEmbed discovery, every value escaped. */
export function unfurlHead(u: ShareUnfurl): string {
  const meta = (attr: 'property' | 'name', key: string, value: string) =>
    `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`;
  const tags = [
    `<title>${escapeHtml(`${u.title} · ${SITE_NAME}`)}</title>`,
    meta('name', 'description', u.description),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:title', u.title),
    meta('property', 'og:description', u.description),
    meta('property', 'og:url', u.url),
    meta('name', 'twitter:card', u.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', u.title),
    meta('name', 'twitter:description', u.description),
  ];
  if (u.image) {
    tags.push(meta('property', 'og:image', u.image), meta('name', 'twitter:image', u.image));
  }
  tags.push(
    `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(u.oembedUrl)}" title="${escapeHtml(u.title)}" />`,
  );
  return tags.join('\n    ');
}

/** The oEmbed document (https://oembed.com, type "link"), with the thumbnail when there is one. */
export function oembedOf(u: ShareUnfurl, providerUrl: string) {
  return {
    version: '1.0' as const,
    type: 'link' as const,
    title: u.title,
    provider_name: SITE_NAME,
    provider_url: providerUrl,
    ...(u.sharedBy ? { author_name: u.sharedBy } : {}),
    ...(u.image ? { thumbnail_url: u.image, thumbnail_width: 320, thumbnail_height: 320 } : {}),
  };
}
