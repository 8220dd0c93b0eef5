/** Browser side effects behind one object, so tests can replace them (jsdom can neither reload nor leave). */
export const browser = {
  reload(): void {
    window.location.reload();
  },
  /** Leaves the app for `url` (a Checkout or billing portal page). */
  leaveFor(url: string): void {
    window.location.assign(url);
  },
  /**
   * Downloads `url` as a link with the download attribute does, staying on the page: a stored file's
   * signed URL (the listen page's track, the data export's zip), whose Content-Disposition names it.
   */
  download(url: string): void {
    const link = document.createElement('a');
    link.href = url;
    link.download = '';
    // Attached while clicked: some browsers ignore a click on a link outside the document.
    document.body.appendChild(link);
    link.click();
    link.remove();
  },
};
