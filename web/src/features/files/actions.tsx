import { FILES_TEXTS, type FileItem } from '@guildhall/common';
import { Download, FolderOpen, Pencil, Share2, Tag, Trash } from 'lucide-react';
import type { MenuAction } from './ItemMenu.tsx';

/** What can be done to an item; the grid menu, list row and selection bar all call these. */
export type ItemHandlers = {
  open: (folder: FileItem) => void;
  download: (file: FileItem) => void;
  share: (file: FileItem) => void;
  rename: (item: FileItem) => void;
  categorize: (file: FileItem) => void;
  remove: (item: FileItem) => void;
  canWrite: boolean;
};

/** What the grid and the list views both take: the items shown, the selection and the actions. */
export type ItemViewProps = {
  items: FileItem[];
  selected: Set<string>;
  onToggle: (item: FileItem) => void;
  handlers: ItemHandlers;
};

const icon = 'size-4';

/** Clicking an item's name: a folder opens, a file toggles its selection (grid and list alike). */
export const activateItem = (item: FileItem, { onToggle, handlers }: ItemViewProps) =>
  item.type === 'folder' ? handlers.open(item) : onToggle(item);

export function menuActions(item: FileItem, h: ItemHandlers): MenuAction[] {
  const noWrite = !h.canWrite;
  if (item.type === 'folder') {
    return [
      { label: 'Open', icon: <FolderOpen className={icon} />, onSelect: () => h.open(item) },
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
    { label: 'Download', icon: <Download className={icon} />, onSelect: () => h.download(item) },
    { label: 'Share', icon: <Share2 className={icon} />, onSelect: () => h.share(item), disabled: noWrite },
    { label: 'Rename', icon: <Pencil className={icon} />, onSelect: () => h.rename(item), disabled: noWrite },
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

export const FOLDER_SHARE_HINT = FILES_TEXTS.foldersCannotBeShared;
