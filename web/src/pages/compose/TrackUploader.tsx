import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import FormField from '@cloudscape-design/components/form-field';
import Modal from '@cloudscape-design/components/modal';
import ProgressBar from '@cloudscape-design/components/progress-bar';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Table from '@cloudscape-design/components/table';
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { coverAccept, trackAccept, type TrackSummary } from '../../../../schema/api/tracks';
import { errorMessage } from '../../api/client';
import { completeCoverUpload, completeTrackUpload, deleteTrack, listTracks, startCoverUpload, startTrackUpload } from '../../api/tracks';
import { useAuth } from '../../auth/AuthContext';
import { checkCoverFile, checkTrackFile, computePeaks, formatDuration, trackNameOf } from './trackFile';
import { useStorageUpload } from './useStorageUpload';

const formatLabels: Record<TrackSummary['format'], string> = { mp3: 'MP3', wav: 'WAV', flac: 'FLAC', aiff: 'AIFF', aac: 'AAC', m4a: 'M4A' };

const describeTrack = (track: TrackSummary) => `${track.name} · ${formatDuration(track.duration_seconds)} · ${formatLabels[track.format]}`;

/**
 * 'Upload track' and 'My tracks' (issue 16) beside the Track URL: the file goes straight from the
 * browser to storage with a progress bar, the waveform is computed once here, and the chosen track (an
 * upload, or one picked from My tracks) is handed up as the compose form's `track_id`. The chosen
 * track takes optional cover art (issue 25 §5) the same way: straight to storage, then checked by the
 * server (by its bytes), shown on the listen page.
 */
export const TrackUploader = memo(function TrackUploader({
  trackId,
  onChoose,
}: {
  trackId: string;
  /** The chosen track (null: none); the form keeps its id. */
  onChoose: (track: TrackSummary | null) => void;
}) {
  const { api } = useAuth();
  const input = useRef<HTMLInputElement>(null);
  const coverInput = useRef<HTMLInputElement>(null);
  const { upload, run: runUpload, reset: resetUpload } = useStorageUpload();
  const { upload: cover, run: runCover, reset: resetCover } = useStorageUpload();
  const [chosen, setChosen] = useState<TrackSummary | null>(null);
  const [pickerOpen, setPickerOpen] = useState(false);
  const [tracks, setTracks] = useState<TrackSummary[] | null>(null);
  const [listError, setListError] = useState<string | null>(null);
  const [selected, setSelected] = useState<TrackSummary[]>([]);
  const [confirming, setConfirming] = useState<TrackSummary | null>(null);
  const [deleting, setDeleting] = useState(false);

  // The form was cleared (a new compose session) or points elsewhere: forget the shown track.
  useEffect(() => {
    if (trackId === '' || (chosen && chosen.id !== trackId)) setChosen(null);
  }, [trackId, chosen]);

  const choose = useCallback(
    (track: TrackSummary | null) => {
      setChosen(track);
      // A failed cover upload's message belonged to the track chosen before.
      resetCover();
      onChoose(track);
    },
    [onChoose, resetCover],
  );

  const uploadFile = async (file: File) => {
    const track = await runUpload(file, {
      check: checkTrackFile(file),
      uploadingStep: 'Uploading…',
      checkingStep: 'Checking the file…',
      failureMessage: 'The upload failed. Please try again.',
      begin: async (contentType) => {
        const { track_id, upload: form } = await startTrackUpload(api, { name: trackNameOf(file.name), content_type: contentType, size: file.size });
        // The waveform is decoded while the file travels; a file the browser cannot decode is kept without one.
        const peaks = computePeaks(file);
        return { form, complete: async () => completeTrackUpload(api, track_id, await peaks) };
      },
    });
    if (!track) return;
    setTracks(null); // My tracks reads the list again
    choose(track);
  };

  /** Cover art for the chosen track: the same two steps as the track (a presigned form, then complete). */
  const uploadCover = async (track: TrackSummary, file: File) => {
    const withCover = await runCover(file, {
      check: checkCoverFile(file),
      uploadingStep: 'Uploading cover art…',
      checkingStep: 'Checking the image…',
      failureMessage: 'The cover art upload failed. Please try again.',
      begin: async (contentType) => {
        const { upload: form } = await startCoverUpload(api, track.id, { content_type: contentType, size: file.size });
        return { form, complete: () => completeCoverUpload(api, track.id) };
      },
    });
    if (!withCover) return;
    setTracks(null);
    choose(withCover);
  };

  const openPicker = () => {
    setPickerOpen(true);
    setSelected(chosen ? [chosen] : []);
    setListError(null);
    listTracks(api).then(setTracks, (error: unknown) => setListError(errorMessage(error, 'Could not load your tracks.')));
  };

  const confirmDelete = async () => {
    if (!confirming) return;
    setDeleting(true);
    try {
      await deleteTrack(api, confirming.id);
      setTracks((current) => current?.filter((track) => track.id !== confirming.id) ?? null);
      setSelected((current) => current.filter((track) => track.id !== confirming.id));
      if (trackId === confirming.id) choose(null);
      setConfirming(null);
    } catch (error) {
      setListError(errorMessage(error, 'Could not delete the track.'));
      setConfirming(null);
    } finally {
      setDeleting(false);
    }
  };

  const uploading = upload.state === 'uploading';
  const coverUploading = cover.state === 'uploading';

  return (
    <SpaceBetween size="xs">
      <SpaceBetween size="xs" direction="horizontal">
        <Button iconName="upload" disabled={uploading} onClick={() => input.current?.click()}>
          Upload track
        </Button>
        <Button disabled={uploading} onClick={openPicker}>
          My tracks
        </Button>
        <input
          ref={input}
          type="file"
          accept={trackAccept}
          aria-label="Track file"
          hidden
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = ''; // the same file may be chosen again after a failure
            if (file) void uploadFile(file);
          }}
        />
      </SpaceBetween>
      <Box variant="small" color="text-body-secondary">
        MP3, WAV, FLAC, AIFF or AAC/M4A, up to 200 MB.
      </Box>
      {upload.state === 'uploading' && <ProgressBar label={upload.fileName} value={upload.progress} description={upload.step} />}
      {upload.state === 'failed' && (
        <Alert type="error" dismissible onDismiss={resetUpload}>
          {upload.message}
        </Alert>
      )}
      {chosen && (
        <SpaceBetween size="xs" direction="horizontal">
          <Box>
            Track: <strong>{describeTrack(chosen)}</strong>
          </Box>
          <Button variant="inline-link" ariaLabel="Remove the track" disabled={coverUploading} onClick={() => choose(null)}>
            Remove
          </Button>
        </SpaceBetween>
      )}
      {chosen && (
        <FormField
          label="Cover art (optional)"
          description="JPEG, PNG or WebP, up to 5 MB. Shown on the listen page."
          errorText={cover.state === 'failed' ? cover.message : undefined}
        >
          <SpaceBetween size="xs">
            <SpaceBetween size="xs" direction="horizontal" alignItems="center">
              <Button iconName="upload" disabled={uploading || coverUploading} onClick={() => coverInput.current?.click()}>
                {chosen.cover_type ? 'Replace cover art' : 'Add cover art'}
              </Button>
              {chosen.cover_type && <StatusIndicator type="success">Cover art added</StatusIndicator>}
            </SpaceBetween>
            {cover.state === 'uploading' && <ProgressBar label={cover.fileName} value={cover.progress} description={cover.step} />}
          </SpaceBetween>
          <input
            ref={coverInput}
            type="file"
            accept={coverAccept}
            aria-label="Cover art file"
            hidden
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = ''; // the same file may be chosen again after a failure
              if (file) void uploadCover(chosen, file);
            }}
          />
        </FormField>
      )}

      <Modal
        visible={pickerOpen && confirming === null}
        header="My tracks"
        size="large"
        onDismiss={() => setPickerOpen(false)}
        footer={
          <Box float="right">
            <SpaceBetween size="xs" direction="horizontal">
              <Button disabled={selected.length === 0} onClick={() => setConfirming(selected[0] ?? null)}>
                Delete
              </Button>
              <Button variant="link" onClick={() => setPickerOpen(false)}>
                Cancel
              </Button>
              <Button
                variant="primary"
                disabled={selected.length === 0}
                onClick={() => {
                  choose(selected[0] ?? null);
                  setPickerOpen(false);
                }}
              >
                Use track
              </Button>
            </SpaceBetween>
          </Box>
        }
      >
        <SpaceBetween size="s">
          {listError && <Alert type="error">{listError}</Alert>}
          <Table
            items={tracks ?? []}
            loading={tracks === null && listError === null}
            loadingText="Loading your tracks"
            selectionType="single"
            selectedItems={selected}
            onSelectionChange={({ detail }) => setSelected(detail.selectedItems)}
            trackBy="id"
            variant="embedded"
            ariaLabels={{ itemSelectionLabel: (_, track) => track.name, selectionGroupLabel: 'Tracks', allItemsSelectionLabel: () => 'All tracks' }}
            columnDefinitions={[
              { id: 'name', header: 'Name', cell: (track) => track.name },
              { id: 'duration', header: 'Duration', cell: (track) => formatDuration(track.duration_seconds) },
              { id: 'format', header: 'Format', cell: (track) => formatLabels[track.format] },
              { id: 'uploaded', header: 'Uploaded', cell: (track) => new Date(track.created_at).toLocaleDateString() },
            ]}
            empty={<Box textAlign="center">No tracks yet. Upload one with 'Upload track'.</Box>}
          />
        </SpaceBetween>
      </Modal>

      <Modal
        visible={confirming !== null}
        header="Delete track"
        onDismiss={() => setConfirming(null)}
        footer={
          <Box float="right">
            <SpaceBetween size="xs" direction="horizontal">
              <Button variant="link" onClick={() => setConfirming(null)}>
                Cancel
              </Button>
              <Button variant="primary" loading={deleting} onClick={() => void confirmDelete()}>
                Delete
              </Button>
            </SpaceBetween>
          </Box>
        }
      >
        Delete <strong>{confirming?.name}</strong>? Its audio is deleted, and links to it will say the track is gone.
      </Modal>
    </SpaceBetween>
  );
});
