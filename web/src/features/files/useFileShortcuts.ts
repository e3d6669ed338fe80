import { useEffect, useRef } from 'react';
import { isTyping } from '../../layout/shortcuts.ts';

export type FileShortcuts = {
  /** Off while a dialog, the preview, the trash or search results are shown. */
  isActive: boolean;
  onDelete: () => void;
  onRename: () => void;
  onSelectAll: () => void;
  onClear: () => void;
  onOpen: () => void;
};

/**
 * The file manager's keys, as in desktop file managers: Delete (or Backspace on a Mac) deletes the
 * selection, F2 renames the one selected item, Ctrl/⌘+A selects everything shown, Escape clears the
 * selection, Enter previews the one selected file.
 */
export function useFileShortcuts(shortcuts: FileShortcuts) {
  const latest = useRef(shortcuts);
  latest.current = shortcuts;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const s = latest.current;
      if (!s.isActive || e.defaultPrevented || isTyping(e.target)) return;
      if (document.querySelector('dialog[open]')) return;
      const mod = e.ctrlKey || e.metaKey;
      if (e.key === 'Delete' || (e.key === 'Backspace' && e.metaKey)) {
        e.preventDefault();
        s.onDelete();
      } else if (e.key === 'F2') {
        e.preventDefault();
        s.onRename();
      } else if (mod && e.key.toLowerCase() === 'a') {
        e.preventDefault();
        s.onSelectAll();
      } else if (e.key === 'Escape') {
        s.onClear();
      } else if (e.key === 'Enter' && e.target === document.body) {
        s.onOpen();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
