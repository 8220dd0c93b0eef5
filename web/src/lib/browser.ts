/** Browser side effects behind one object, so tests can replace them (jsdom can neither reload nor leave). */
export const browser = {
  reload(): void {
    window.location.reload();
  },
  /** Leaves the app for `url` (a Checkout or billing portal page). */
  leaveFor(url: string): void {
    window.location.assign(url);
  },
};
