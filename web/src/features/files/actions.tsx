import type { FileItem } from '@guildhall/common';
import {
  Download,
  Eye,
  FileArchive,
  FolderInput,
  FolderOpen,
  Inbox,
  Pencil,
  Share2,
  Tag,
  Trash,
} from 'lucide-react';
import type { DragEvent, MouseEvent } from 'react';
import type { MenuAction } from './ItemMenu.tsx';

/** What can be done to an item; the grid menu, list row and selection bar all call these. */
export type ItemHandlers = {
  open: (folder: FileItem) => void;
  download: (file: FileItem) => void;
  share: (file: FileItem) => void;
  /** Opens the upload links of one of the member's own folders (issue 45). */
  requestFiles?: (folder: FileItem) => void;
  /** True for a folder the member created (only those take upload links). */
  ownsFolder?: (folder: FileItem) => boolean;
  rename: (item: FileItem) => void;
  categorize: (file: FileItem) => void;
  remove: (item: FileItem) => void;
  preview: (file: FileItem) => void;
  moveTo: (item: FileItem) => void;
  downloadZip: (item: FileItem) => void;
  canWrite: boolean;
};

/** Dragging items onto a folder (or a breadcrumb) moves them. */
export const DRAG_TYPE = 'application/x-guildhall-items';

export type DragHandlers = {
  /** The ids a drag starting on this item carries: the selection when the item is in it. */
  idsFor: (item: FileItem) => string[];
  /** Items dropped onto a folder (null = the root). */
  onDropInto: (folderId: string | null, ids: string[]) => void;
};

/** Props that make an element a drop target for dragged items. */
export function dropTarget(
  folderId: string | null,
  drag: DragHandlers | undefined,
  setOver?: (over: boolean) => void,
) {
  if (!drag) return {};
  const carries = (e: DragEvent) => e.dataTransfer.types.includes(DRAG_TYPE);
  return {
    onDragOver: (e: DragEvent) => {
      if (!carries(e)) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'move';
      setOver?.(true);
    },
    onDragLeave: () => setOver?.(false),
    onDrop: (e: DragEvent) => {
      if (!carries(e)) return;
      e.preventDefault();
      setOver?.(false);
      const ids = JSON.parse(e.dataTransfer.getData(DRAG_TYPE) || '[]') as string[];
      if (folderId && ids.includes(folderId)) return; // onto itself
      if (ids.length > 0) drag.onDropInto(folderId, ids);
    },
  };
}

/** Props that let an element be dragged (members who may change things only). */
export function dragSource(item: FileItem, drag: DragHandlers | undefined, canWrite: boolean) {
  if (!drag || !canWrite) return {};
  return {
    draggable: true,
    onDragStart: (e: DragEvent) => {
      e.dataTransfer.setData(DRAG_TYPE, JSON.stringify(drag.idsFor(item)));
      e.dataTransfer.effectAllowed = 'move';
    },
  };
}

/** What the grid and the list views both take: the items shown, the selection and the actions. */
export type ItemViewProps = {
  items: FileItem[];
  selected: Set<string>;
  /** A click on an item's checkbox or name: plain toggles it, Shift selects the range, Ctrl/⌘ toggles. */
  onToggle: (item: FileItem, event?: MouseEvent) => void;
  handlers: ItemHandlers;
  drag?: DragHandlers;
};

const icon = 'size-4';

/**
 * Clicking an item's name: a folder opens, a file toggles its selection (Shift: a range); a double
 * click on a file opens its preview (grid and list alike).
 */
export const activateItem = (item: FileItem, { onToggle, handlers }: ItemViewProps, event?: MouseEvent) =>
  item.type === 'folder' && !event?.shiftKey && !event?.ctrlKey && !event?.metaKey
    ? handlers.open(item)
    : onToggle(item, event);

export function menuActions(item: FileItem, h: ItemHandlers): MenuAction[] {
  const noWrite = !h.canWrite;
  if (item.type === 'folder') {
    return [
      { label: 'Open', icon: <FolderOpen className={icon} />, onSelect: () => h.open(item) },
      {
        label: 'Download as ZIP',
        icon: <FileArchive className={icon} />,
        onSelect: () => h.downloadZip(item),
      },
      // A folder share lists the folder's own files (issue 45).
      { label: 'Share', icon: <Share2 className={icon} />, onSelect: () => h.share(item), disabled: noWrite },
      {
        label: 'Request files',
        icon: <Inbox className={icon} />,
        onSelect: () => h.requestFiles?.(item),
        disabled: noWrite || !h.requestFiles || !h.ownsFolder?.(item),
        hint: 'A link anyone can upload into this folder with',
      },
      {
        label: 'Move to…',
        icon: <FolderInput className={icon} />,
        onSelect: () => h.moveTo(item),
        disabled: noWrite,
      },
      {
        label: 'Rename',
        icon: <Pencil className={icon} />,
        onSelect: () => h.rename(item),
        disabled: noWrite,
      },
      {
        label: 'Delete Folder',
        icon: <Trash className={icon} />,
        onSelect: () => h.remove(item),
        danger: true,
        disabled: noWrite,
      },
    ];
  }
  return [
    { label: 'Preview', icon: <Eye className={icon} />, onSelect: () => h.preview(item) },
    { label: 'Download', icon: <Download className={icon} />, onSelect: () => h.download(item) },
    { label: 'Share', icon: <Share2 className={icon} />, onSelect: () => h.share(item), disabled: noWrite },
    { label: 'Rename', icon: <Pencil className={icon} />, onSelect: () => h.rename(item), disabled: noWrite },
    {
      label: 'Move to…',
      icon: <FolderInput className={icon} />,
      onSelect: () => h.moveTo(item),
      disabled: noWrite,
    },
    {
      label: 'Categorize',
      icon: <Tag className={icon} />,
      onSelect: () => h.categorize(item),
      disabled: noWrite,
    },
    {
      label: 'Delete',
      icon: <Trash className={icon} />,
      onSelect: () => h.remove(item),
      danger: true,
      disabled: noWrite,
    },
  ];
}
