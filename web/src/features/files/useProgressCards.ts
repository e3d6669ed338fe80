import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ProgressCard } from './progress-cards.ts';

/** The floating cards' state, with timed removal (timers are cleared when the page unmounts). */
export function useProgressCards() {
  const [cards, setCards] = useState<ProgressCard[]>([]);
  const timers = useRef(new Set<ReturnType<typeof setTimeout>>());
  useEffect(() => {
    const all = timers.current;
    return () => {
      for (const t of all) clearTimeout(t);
    };
  }, []);

  const add = useCallback((card: ProgressCard) => setCards((cs) => [...cs, card]), []);
  const update = useCallback(
    (id: string, patch: Partial<ProgressCard>) =>
      setCards((cs) => cs.map((c) => (c.id === id ? { ...c, ...patch } : c))),
    [],
  );
  const remove = useCallback((id: string) => setCards((cs) => cs.filter((c) => c.id !== id)), []);
  const removeLater = useCallback(
    (id: string, ms: number) => {
      const t = setTimeout(() => {
        timers.current.delete(t);
        remove(id);
      }, ms);
      timers.current.add(t);
    },
    [remove],
  );
  const api = useMemo(() => ({ add, update, remove, removeLater }), [add, update, remove, removeLater]);
  return { cards, api };
}
