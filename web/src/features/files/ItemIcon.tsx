import type { FileItem } from '@guildhall/common';
import {
  File,
  FileArchive,
  FileCode,
  FileImage,
  FileMusic,
  FileSpreadsheet,
  FileText,
  FileVideoCamera,
  Folder,
} from 'lucide-react';
import { cn } from '../../ui/cn.ts';
import { iconKind } from './display.ts';

const ICONS = {
  folder: { Icon: Folder, tone: 'text-warning-text' },
  image: { Icon: FileImage, tone: 'text-success-text' },
  video: { Icon: FileVideoCamera, tone: 'text-danger-text' },
  audio: { Icon: FileMusic, tone: 'text-[#c792ea]' },
  archive: { Icon: FileArchive, tone: 'text-[#f4a261]' },
  code: { Icon: FileCode, tone: 'text-[#7fdbff]' },
  sheet: { Icon: FileSpreadsheet, tone: 'text-success-text' },
  text: { Icon: FileText, tone: 'text-brand-text' },
  file: { Icon: File, tone: 'text-muted' },
} as const;

/** The icon for an item's kind (from its type and extension). */
export function ItemIcon({ item, className }: { item: Pick<FileItem, 'name' | 'type'>; className?: string }) {
  const { Icon, tone } = ICONS[iconKind(item)];
  return <Icon aria-hidden className={cn('shrink-0', tone, className)} />;
}
