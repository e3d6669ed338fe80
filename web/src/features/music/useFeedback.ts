import { MUSIC_ERROR_TOAST_MS, MUSIC_SUCCESS_TOAST_MS } from '@guildhall/common';
import { useCallback, useEffect, useRef, useState } from 'react';

export type Feedback = { tone: 'error' | 'success'; text: string; detail?: string; key: number };

/**
 * The panel's banner: an error stays 5 s, a success 3 s (portal-tools §8, §9); a newer message replaces
 * the one shown and restarts its clock.
 */
export function useFeedback() {
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const counter = useRef(0);

  useEffect(() => {
    if (!feedback) return;
    const ms = feedback.tone === 'error' ? MUSIC_ERROR_TOAST_MS : MUSIC_SUCCESS_TOAST_MS;
    const t = setTimeout(() => setFeedback(null), ms);
    return () => clearTimeout(t);
  }, [feedback]);

  const showError = useCallback((text: string, detail?: string) => {
    counter.current += 1;
    setFeedback({
      tone: 'error',
      text,
      detail: detail && detail !== text ? detail : undefined,
      key: counter.current,
    });
  }, []);
  const showSuccess = useCallback((text: string) => {
    counter.current += 1;
    setFeedback({ tone: 'success', text, key: counter.current });
  }, []);
  const dismiss = useCallback(() => setFeedback(null), []);

  return { feedback, showError, showSuccess, dismiss };
}
