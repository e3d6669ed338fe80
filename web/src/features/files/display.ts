import {
  DISPLAY_OWNER,
  DISPLAY_PERMISSION,
  FILES_TEXTS,
  type FileItem,
  fileExtension,
  formatFileSize,
} from '@guildhall/common';

/**
 * The owner shown on cards and rows: the member who uploaded or created the item, or "System" for
 * items without one (made before owners were kept, or whose member was removed). One name everywhere,
 * so a card never says "System" while its tooltip names somebody (issue 30).
 */
export const ownerLabel = (item: FileItem) => item.uploadedBy?.username ?? DISPLAY_OWNER;
export const permissionLabel = (_item: FileItem) => DISPLAY_PERMISSION;
/** The tooltip of an item's name. */
export const itemTitle = (item: FileItem) => item.name;

export type SortKey = 'name' | 'size' | 'date' | 'type';
export type SortOrder = { key: SortKey; dir: 'asc' | 'desc' };
export const SORT_KEYS: { key: SortKey; label: string }[] = [
  { key: 'name', label: 'Name' },
  { key: 'size', label: 'Size' },
  { key: 'date', label: 'Date modified' },
  { key: 'type', label: 'Type' },
];

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/**
 * Folders first (as file managers do), then by the chosen key; ties by name. Names compare the way
 * people read them ("file 2" before "file 10"); type is the extension.
 */
export function sortItems(items: FileItem[], order: SortOrder): FileItem[] {
  const sign = order.dir === 'asc' ? 1 : -1;
  const byName = (a: FileItem, b: FileItem) => collator.compare(a.name, b.name);
  const compare = (a: FileItem, b: FileItem): number => {
    switch (order.key) {
      case 'size':
        return a.type === 'folder' ? (a.itemCount ?? 0) - (b.itemCount ?? 0) : a.size - b.size;
      case 'date':
        return Date.parse(a.updatedAt) - Date.parse(b.updatedAt);
      case 'type':
        return collator.compare(fileExtension(a.name), fileExtension(b.name));
      default:
        return byName(a, b);
    }
  };
  return [...items].sort((a, b) => {
    if (a.type !== b.type) return a.type === 'folder' ? -1 : 1;
    return sign * compare(a, b) || byName(a, b);
  });
}

/** "date-desc" ⇄ {key, dir}; anything else is name ascending. */
export function parseSort(value: string | null): SortOrder {
  const [key, dir] = (value ?? '').split('-');
  const isKey = SORT_KEYS.some((k) => k.key === key);
  return { key: isKey ? (key as SortKey) : 'name', dir: dir === 'desc' ? 'desc' : 'asc' };
}

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

/** Why the selection cannot be shared, or the one file (portal-tools §5) or one folder alone (issue 45). */
export function shareTarget(selected: FileItem[]): { file: FileItem } | { error: string } {
  if (selected.length === 1) return { file: selected[0]! };
  const files = selected.filter((i) => i.type === 'file');
  if (files.length === 0) return { error: FILES_TEXTS.selectAFile };
  if (files.length > 1) return { error: FILES_TEXTS.selectOnlyOneFile };
  return { file: files[0]! };
}
