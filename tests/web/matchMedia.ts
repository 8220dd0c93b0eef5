/** jsdom has no matchMedia: a stand-in whose queries match when `matches(query)` says so. */
export function fakeMatchMedia(matches: (query: string) => boolean): typeof window.matchMedia {
  return (query: string) => {
    // Without the deprecated addListener/removeListener, which the app does not use.
    const list: Partial<MediaQueryList> = {
      matches: matches(query),
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    };
    return list as MediaQueryList;
  };
}
