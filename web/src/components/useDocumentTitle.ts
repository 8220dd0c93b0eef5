import { useEffect } from 'react';

export const APP_TITLE = 'Trackpitch';

/** The tab title for a page: "{title} · Trackpitch", or "Trackpitch" alone without a title. */
export function documentTitle(title?: string): string {
  return title ? `${title} · ${APP_TITLE}` : APP_TITLE;
}

/** Sets the tab title while the calling component is mounted, and puts back "Trackpitch" when it unmounts. */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    document.title = documentTitle(title);
    return () => {
      document.title = APP_TITLE;
    };
  }, [title]);
}
