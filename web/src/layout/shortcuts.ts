/** Every keyboard shortcut of the portal, by where it works: what the `?` dialog lists (issue 31). */
export type Shortcut = { keys: string[][]; does: string };

export const SHORTCUTS: { where: string; items: Shortcut[] }[] = [
  {
    where: 'Everywhere',
    items: [
      { keys: [['?']], does: 'Show this list of shortcuts' },
      { keys: [['Tab'], ['Shift', 'Tab']], does: 'Move to the next or previous control' },
      { keys: [['Enter'], ['Space']], does: 'Press the focused button, follow the focused link' },
      { keys: [['Esc']], does: 'Close a dialog or menu, and cancel an edit in the Admin Panel' },
      { keys: [['Tab']], does: 'First press on a page: Skip to content, past the navigation' },
    ],
  },
  {
    where: 'File System',
    items: [
      { keys: [['Delete']], does: 'Delete the selected items (⌘ + Backspace on a Mac)' },
      { keys: [['F2']], does: 'Rename the one selected item' },
      {
        keys: [
          ['Ctrl', 'A'],
          ['⌘', 'A'],
        ],
        does: 'Select everything shown',
      },
      { keys: [['Esc']], does: 'Clear the selection' },
      { keys: [['Enter']], does: 'Preview the one selected file' },
      { keys: [['Enter']], does: 'On an item’s actions button: open its menu (Share, Rename, …)' },
      { keys: [['↑'], ['↓']], does: 'Move through an open menu; Home and End jump to its ends' },
      { keys: [['Ctrl', 'A']], does: 'Select every item shown' },
      { keys: [['Shift', 'Click']], does: 'Select the items between the last one clicked and this one' },
      { keys: [['Delete']], does: 'Delete the selected items (they go to the trash)' },
      { keys: [['F2']], does: 'Rename the selected item' },
      { keys: [['Esc']], does: 'Clear the selection; close the preview' },
      { keys: [['←'], ['→']], does: 'In the preview: previous and next file' },
    ],
  },
  {
    where: 'Tic-Tac-Toe',
    items: [
      { keys: [['←'], ['↑'], ['→'], ['↓']], does: 'Move between the cells of the board' },
      { keys: [['Enter'], ['Space']], does: 'Play the focused cell' },
    ],
  },
  {
    where: 'Music Control',
    items: [
      { keys: [['←'], ['→']], does: 'Switch tabs (Home and End: first and last tab)' },
      { keys: [['←'], ['→']], does: 'On the position bar: seek back or forward' },
    ],
  },
];

/** True when a key press belongs to what the member is typing, not to a shortcut. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag !== 'INPUT') return false;
  const type = (target as HTMLInputElement).type;
  return !['button', 'checkbox', 'radio', 'range', 'reset', 'submit', 'color', 'file'].includes(type);
}
