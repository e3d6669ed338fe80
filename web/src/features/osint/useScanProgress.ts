import { OSINT_PROGRESS_EVENT } from '@guildhall/common';
import { useRef, useState } from 'react';
import { useRealtimeEvent } from '../../realtime/useRealtimeEvent.ts';

export type ScanProgress = { checked: number; total: number; hits: { name: string; url: string }[] };

/**
 * The progress of the running search `searchId`, pushed to this user's own room on the realtime channel:
 * sites checked / total and the platforms found so far; null until the first push. The socket is held
 * for as long as the screen is open, so it is connected before a search starts.
 */
export function useScanProgress(searchId: string | null): ScanProgress | null {
  const [state, setState] = useState<{ id: string; progress: ScanProgress } | null>(null);
  const current = useRef(searchId);
  current.current = searchId;

  useRealtimeEvent(OSINT_PROGRESS_EVENT, true, (p) => {
    if (p.searchId !== current.current) return;
    setState((prev) => {
      const before = prev?.id === p.searchId ? prev.progress : null;
      return {
        id: p.searchId,
        progress: {
          checked: Math.max(before?.checked ?? 0, p.checked),
          total: p.total,
          hits: [...(before?.hits ?? []), ...p.hits],
        },
      };
    });
  });

  return state && state.id === searchId ? state.progress : null;
}
