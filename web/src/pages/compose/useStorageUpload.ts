import { useCallback, useState } from 'react';
import { errorMessage } from '../../api/client';
import { uploadToStorage } from '../../api/tracks';
import type { PresignedUpload } from '../../../../schema/api/tracks';

export type Upload = { state: 'idle' } | { state: 'uploading'; fileName: string; progress: number; step: string } | { state: 'failed'; message: string };

/** One upload to storage: what the file check said, the words shown at each step, and the server's two calls. */
export interface UploadFlow<T> {
  check: { ok: true; contentType: string } | { ok: false; message: string };
  uploadingStep: string;
  checkingStep: string;
  failureMessage: string;
  /** Asks the server for a storage form; returns it and how to complete the upload once the file is stored. */
  begin: (contentType: string) => Promise<{ form: PresignedUpload; complete: () => Promise<T> }>;
}

/**
 * The state of a file going straight from the browser to storage with a progress bar, then checked by
 * the server: the track and its cover art take the same steps.
 */
export function useStorageUpload() {
  const [upload, setUpload] = useState<Upload>({ state: 'idle' });

  /** Runs a flow for `file`; the server's completed record, or null when the check or a step failed (shown). */
  const run = useCallback(async <T>(file: File, flow: UploadFlow<T>): Promise<T | null> => {
    if (!flow.check.ok) {
      setUpload({ state: 'failed', message: flow.check.message });
      return null;
    }
    const uploading = (progress: number, step: string) => setUpload({ state: 'uploading', fileName: file.name, progress, step });
    uploading(0, flow.uploadingStep);
    try {
      const { form, complete } = await flow.begin(flow.check.contentType);
      await uploadToStorage(form, file, { onProgress: (fraction) => uploading(Math.round(fraction * 100), flow.uploadingStep) });
      uploading(100, flow.checkingStep);
      const completed = await complete();
      setUpload({ state: 'idle' });
      return completed;
    } catch (error) {
      setUpload({ state: 'failed', message: errorMessage(error, flow.failureMessage) });
      return null;
    }
  }, []);

  /** Clears a finished or failed upload's message; one under way goes on. */
  const reset = useCallback(() => setUpload((current) => (current.state === 'uploading' ? current : { state: 'idle' })), []);
  return { upload, run, reset };
}
