import { useLayoutEffect } from 'react';
import brandThemeCss from 'virtual:brand-theme-css';

let users = 0;
let styleNode: HTMLStyleElement | null = null;

/**
 * Puts the brand's Cloudscape theme (./theme.ts) on the page while the calling component is shown, and
 * takes it out when the last one goes: as applyTheme does (a style element at the end of the head) and
 * its reset undoes. Before the first paint, so a branded page never shows stock Cloudscape first.
 */
export function useBrandTheme() {
  useLayoutEffect(() => {
    users += 1;
    if (!styleNode) {
      styleNode = document.createElement('style');
      styleNode.dataset.brandTheme = '';
      styleNode.textContent = brandThemeCss;
      document.head.appendChild(styleNode);
    }
    return () => {
      users -= 1;
      if (users === 0) {
        styleNode?.remove();
        styleNode = null;
      }
    };
  }, []);
}

/** The night background up to the window's edges (overscroll included) while a dark page is shown. */
export function useNightBackground(night: string, { dark = false }: { dark?: boolean } = {}) {
  useLayoutEffect(() => {
    const root = document.documentElement;
    const previous = { background: root.style.backgroundColor, scheme: root.style.colorScheme };
    root.style.backgroundColor = night;
    if (dark) root.style.colorScheme = 'dark';
    return () => {
      root.style.backgroundColor = previous.background;
      root.style.colorScheme = previous.scheme;
    };
  }, [night, dark]);
}
