import { useEffect, useState } from 'react';
import { DELETING_MS, PAUSE_MS, TYPING_MS } from './content';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function reducedMotionNow(): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(REDUCED_MOTION).matches;
}

/** True while the visitor asks the system for less motion; follows changes to the setting. */
export function usePrefersReducedMotion(): boolean {
  const [reduced, setReduced] = useState(reducedMotionNow);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return;
    // Safari before 14 has no addEventListener on MediaQueryList: the type says what may be missing.
    const query: Pick<MediaQueryList, 'matches'> & Partial<Pick<MediaQueryList, 'addEventListener' | 'removeEventListener'>> =
      window.matchMedia(REDUCED_MOTION);
    const update = () => setReduced(query.matches);
    update();
    query.addEventListener?.('change', update);
    return () => query.removeEventListener?.('change', update);
  }, []);
  return reduced;
}

export { reducedMotionNow };

interface TypingState {
  index: number;
  text: string;
  deleting: boolean;
}

/**
 * The hero's word rotation (spec §9): the first word is shown whole, held for 2000 ms, deleted one
 * character every 100 ms; the next word is typed one character every 150 ms, held 2000 ms, and so on.
 * With `enabled` false (reduced motion) the first word stays, whole and still.
 */
export function useTypingRotation(words: readonly string[], enabled: boolean): string {
  const [state, setState] = useState<TypingState>({ index: 0, text: words[0] ?? '', deleting: false });

  useEffect(() => {
    if (!enabled) return;
    const word = words[state.index % words.length] ?? '';
    let delay: number;
    let next: TypingState;
    if (!state.deleting && state.text === word) {
      delay = PAUSE_MS;
      next = { ...state, deleting: true };
    } else if (state.deleting) {
      delay = DELETING_MS;
      const text = state.text.slice(0, -1);
      next = text === '' ? { index: (state.index + 1) % words.length, text: '', deleting: false } : { ...state, text };
    } else {
      delay = TYPING_MS;
      next = { ...state, text: word.slice(0, state.text.length + 1) };
    }
    const timer = setTimeout(() => setState(next), delay);
    return () => clearTimeout(timer);
  }, [state, enabled, words]);

  return enabled ? state.text : (words[0] ?? '');
}
