import { useEffect, useRef, useState } from 'react';

/**
 * A settings field the host edits while the game's settings can also change elsewhere (another tab, a
 * `/pictionary` command: issue 44): it follows the game's value for as long as the host has not edited
 * it, and keeps the host's edit otherwise. A new `resetKey` (another game opened) loads the game's value
 * whatever was edited. `keyOf` compares values (arrays by content).
 */
export function useFollowedValue<T>(
  server: T,
  resetKey: string,
  keyOf: (v: T) => string = String,
): [T, (next: T | ((held: T) => T)) => void] {
  const [local, setLocal] = useState(server);
  const base = useRef({ value: server, resetKey });
  const serverKey = keyOf(server);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the game's value (by content) or the game changes
  useEffect(() => {
    const was = base.current;
    setLocal((held) => (was.resetKey !== resetKey || keyOf(held) === keyOf(was.value) ? server : held));
    base.current = { value: server, resetKey };
  }, [serverKey, resetKey]);
  return [local, setLocal];
}
