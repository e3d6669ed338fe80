import {
  DISPLAY_OWNER,
  DISPLAY_PERMISSION,
  FILES_TEXTS,
  type FileItem,
  fileExtension,
  formatFileSize,
} from '@guildhall/common';

/** Derived display of an item (portal-tools §3): owner always "System", permission read-write. */
export const ownerLabel = (_item: FileItem) => DISPLAY_OWNER;
export const permissionLabel = (_item: FileItem) => DISPLAY_PERMISSION;
/** The tooltip of an item's name: who uploaded it, when known. */
export const itemTitle = (item: FileItem) =>
  item.uploadedBy ? `${item.name} — uploaded by ${item.uploadedBy.username}` : item.name;

export function sizeLabel(item: FileItem): string {
  if (item.type === 'folder') {
    const n = item.itemCount ?? 0;
    return `${n} item${n === 1 ? '' : 's'}`;
  }
  return formatFileSize(item.size);
}

export function dateLabel(iso: string | null | undefined): string {
  if (!iso) return FILES_TEXTS.unknownDate;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return FILES_TEXTS.unknownDate;
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export type IconKind =
  | 'folder'
  | 'image'
  | 'video'
  | 'audio'
  | 'archive'
  | 'code'
  | 'sheet'
  | 'text'
  | 'file';

const KINDS: Record<string, IconKind> = {};
const add = (kind: IconKind, exts: string) => {
  for (const e of exts.split(' ')) KINDS[e] = kind;
};
add('image', 'png jpg jpeg gif webp svg bmp ico avif heic tif tiff');
add('video', 'mp4 mkv mov webm avi wmv m4v');
add('audio', 'mp3 wav flac ogg m4a aac opus');
add('archive', 'zip rar 7z tar gz tgz bz2 xz zst');
add('code', 'js ts tsx jsx json html css py rb go rs java c cpp h sh yml yaml toml xml sql');
add('sheet', 'csv xls xlsx ods');
add('text', 'txt md pdf doc docx odt rtf log');

export function iconKind(item: Pick<FileItem, 'name' | 'type'>): IconKind {
  if (item.type === 'folder') return 'folder';
  return KINDS[fileExtension(item.name)] ?? 'file';
}

/** Case-insensitive name filter (portal-tools §2), client side. */
export function filterItems(items: FileItem[], filter: string): FileItem[] {
  const needle = filter.trim().toLocaleLowerCase();
  if (!needle) return items;
  return items.filter((i) => i.name.toLocaleLowerCase().includes(needle));
}

/** Why the selection cannot be shared, or null with the one file (portal-tools §5). */
export function shareTarget(selected: FileItem[]): { file: FileItem } | { error: string } {
  const files = selected.filter((i) => i.type === 'file');
  if (files.length === 0) return { error: FILES_TEXTS.selectAFile };
  if (files.length > 1) return { error: FILES_TEXTS.selectOnlyOneFile };
  return { file: files[0]! };
}
