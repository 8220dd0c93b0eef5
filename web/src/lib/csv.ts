/**
 * CSV download helpers of the web app; the document builders live in schema/csv/write.ts (the server's
 * data export writes the same CSV).
 */
export { csvCell, csvDocument, csvLines, neutraliseFormula, toCsv, type CsvCell, type CsvColumn } from '../../../schema/csv/write';

const pad = (n: number) => String(n).padStart(2, '0');

/** yyyy-MM-dd in local time (used in export file names). */
export function formatDateStamp(date: Date = new Date()): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * yyyy-MM-dd HH:mm in local time for an ISO timestamp (or Date); '' for null/undefined/empty. A value
 * that is not a date is returned unchanged rather than dropped.
 */
export function formatCsvDateTime(value: string | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return `${formatDateStamp(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Browser side effect behind one object so tests can replace it. Saves text or a Blob as a file download. */
export const fileSaver = {
  save(filename: string, content: string, type = 'text/csv;charset=utf-8'): void {
    fileSaver.saveBlob(filename, new Blob([content], { type }));
  },
  /** Saves the bytes as they are. */
  saveBlob(filename: string, blob: Blob): void {
    const url = URL.createObjectURL(blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    link.rel = 'noopener';
    link.style.display = 'none';
    document.body.appendChild(link);
    link.click();
    link.remove();
    // Revoke later: some browsers start the download asynchronously after click().
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  },
};
