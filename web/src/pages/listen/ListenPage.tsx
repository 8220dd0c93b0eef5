/**
 * The private listen page (issue 16, DESIGN §12): `/l/:token`, opened from a recipient's email. No
 * sign-in and no cookie: the token in the path is the whole authority. It shows the artist, the track,
 * its cover art (when the artist added one), the campaign's description, the waveform player, a Download button when the artist allowed it, and
 * the one-click answers with an optional note. An expired link or a deleted track gets a clear page.
 * Its own lazy chunk: wavesurfer.js is loaded here only.
 */
import Alert from '@cloudscape-design/components/alert';
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import Container from '@cloudscape-design/components/container';
import FormField from '@cloudscape-design/components/form-field';
import Header from '@cloudscape-design/components/header';
import SpaceBetween from '@cloudscape-design/components/space-between';
import StatusIndicator from '@cloudscape-design/components/status-indicator';
import Textarea from '@cloudscape-design/components/textarea';
import { useCallback, useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import {
  LISTEN_URL_SECONDS,
  listenAnswerLabels,
  listenAnswers,
  listenLimits,
  listenMessages,
  type ListenAnswer,
  type ListenPage,
} from '../../../../schema/api/listenValues';
import { ListenError, loadListenPage, newListenSession, sendListenAnswer, sendListenBeacon, type ListenBeacon } from '../../api/listen';
import { RecipientPage } from '../../components/RecipientPage';
import { useDocumentTitle } from '../../components/useDocumentTitle';
import { browser } from '../../lib/browser';
import { WaveformPlayer } from './WaveformPlayer';

type State = { status: 'loading' } | { status: 'error'; message: string } | { status: 'page'; page: ListenPage; fetchedAt: number };

/**
 * How long the page trusts its signed URLs: they live LISTEN_URL_SECONDS from the read; a minute less
 * leaves room for a slow click and a clock that differs.
 */
export const LISTEN_URLS_FRESH_MS = (LISTEN_URL_SECONDS - 60) * 1000;

/** The page of a token and when it was asked for (Date.now() before the request: the URLs were signed after it). */
async function fetchPage(token: string, options: { signal?: AbortSignal; fetchImpl?: typeof fetch }): Promise<{ page: ListenPage; fetchedAt: number }> {
  const fetchedAt = Date.now();
  return { page: await loadListenPage(token, options), fetchedAt };
}

export default function ListenPage({ fetchImpl }: { fetchImpl?: typeof fetch }) {
  const token = useParams().token ?? '';
  const [state, setState] = useState<State>({ status: 'loading' });
  useDocumentTitle(state.status === 'page' && state.page.state === 'ready' ? state.page.track_name : 'Private listen link');
  // A renewal that finds the link expired or the track removed: that page replaces the player.
  const showGone = useCallback((page: ListenPage, fetchedAt: number) => setState({ status: 'page', page, fetchedAt }), []);

  useEffect(() => {
    const controller = new AbortController();
    fetchPage(token, { signal: controller.signal, fetchImpl }).then(
      ({ page, fetchedAt }) => setState({ status: 'page', page, fetchedAt }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const status = error instanceof ListenError ? error.status : undefined;
        // 410 without a page: the artist deleted their account (issue 26 §3).
        const message =
          status === 0 ? 'Could not reach the server. Check your connection and try again.' : status === 410 ? listenMessages.gone : listenMessages.notFound;
        setState({ status: 'error', message });
      },
    );
    return () => controller.abort();
  }, [token, fetchImpl]);

  let content;
  if (state.status === 'loading') {
    // In a card: the page around it is the brand's night background.
    content = (
      <Container>
        <Box textAlign="center" padding="l">
          <StatusIndicator type="loading">Loading...</StatusIndicator>
        </Box>
      </Container>
    );
  } else if (state.status === 'error') {
    content = (
      <Container header={<Header variant="h1">Private listen link</Header>}>
        <Alert type="error">{state.message}</Alert>
      </Container>
    );
  } else if (state.page.state !== 'ready') {
    content = (
      <Container header={<Header variant="h1">Private listen link</Header>}>
        <Alert type="info" header={state.page.state === 'expired' ? 'Link expired' : 'Track removed'}>
          {state.page.message}
        </Alert>
      </Container>
    );
  } else {
    content = <Player token={token} page={state.page} fetchedAt={state.fetchedAt} onGone={showGone} fetchImpl={fetchImpl} />;
  }

  return <RecipientPage>{content}</RecipientPage>;
}

function Player({
  token,
  page: loaded,
  fetchedAt,
  onGone,
  fetchImpl,
}: {
  token: string;
  page: Extract<ListenPage, { state: 'ready' }>;
  fetchedAt: number;
  onGone: (page: ListenPage, fetchedAt: number) => void;
  fetchImpl?: typeof fetch;
}) {
  const report = useCallback((beacon: ListenBeacon) => sendListenBeacon(token, beacon), [token]);
  // The signed URLs live minutes: the page asks for new ones when the audio stops working, and before a
  // download with URLs older than LISTEN_URLS_FRESH_MS.
  const [urls, setUrls] = useState({ audio: loaded.audio_url, download: loaded.download_url, fetchedAt });
  const page = { ...loaded, audio_url: urls.audio, download_url: urls.download };
  /**
   * The page read again: its fresh URLs when it is still the player, else null (the expired or removed
   * page shows). For a download only the download URL is taken: a new audio URL would reload the player
   * and stop what is playing.
   */
  const renew = useCallback(
    async (which: 'audio' | 'download') => {
      const fresh = await fetchPage(token, { fetchImpl });
      if (fresh.page.state !== 'ready') {
        onGone(fresh.page, fresh.fetchedAt);
        return null;
      }
      const { audio_url: audio, download_url: download } = fresh.page;
      setUrls((current) => ({ audio: which === 'audio' ? audio : current.audio, download, fetchedAt: fresh.fetchedAt }));
      return { download };
    },
    [token, fetchImpl, onGone],
  );
  // A renewal that failed (offline) is tried again by the player (WaveformPlayer).
  const renewAudio = useCallback(() => void renew('audio').catch(() => undefined), [renew]);

  const [downloading, setDownloading] = useState(false);
  const [downloadFailed, setDownloadFailed] = useState(false);
  const reportDownload = () => report({ type: 'download', session: newListenSession() });
  const download = (event: CustomEvent) => {
    setDownloadFailed(false);
    // Fresh URLs: the link downloads by itself.
    if (Date.now() - urls.fetchedAt < LISTEN_URLS_FRESH_MS) {
      reportDownload();
      return;
    }
    // Older ones would answer AccessDenied: read the page again, then download from its new URL.
    event.preventDefault();
    setDownloading(true);
    renew('download').then(
      (renewed) => {
        setDownloading(false);
        if (renewed?.download) {
          browser.download(renewed.download);
          reportDownload();
        }
      },
      () => {
        setDownloading(false);
        setDownloadFailed(true);
      },
    );
  };
  return (
    <SpaceBetween size="l">
      <Container
        header={
          <Header variant="h1" description={`By ${page.artist_name}`}>
            {page.track_name}
          </Header>
        }
      >
        <SpaceBetween size="m">
          {page.cover_url && <CoverArt url={page.cover_url} trackName={page.track_name} />}
          {page.description.trim() !== '' && <Box variant="p">{page.description}</Box>}
          <WaveformPlayer
            audioUrl={page.audio_url}
            peaks={page.peaks}
            durationSeconds={page.duration_seconds}
            trackName={page.track_name}
            onReport={report}
            onUrlExpired={renewAudio}
          />
          {page.download_url && (
            <SpaceBetween size="xs">
              <Button iconName="download" href={page.download_url} download loading={downloading} onClick={download}>
                Download
              </Button>
              {downloadFailed && (
                <div role="status">
                  <StatusIndicator type="error">The download did not start. Check your connection and try again.</StatusIndicator>
                </div>
              )}
            </SpaceBetween>
          )}
        </SpaceBetween>
      </Container>
      <Answers token={token} initial={page.answer} initialNote={page.answer_note ?? ''} fetchImpl={fetchImpl} />
    </SpaceBetween>
  );
}

/** The cover's box: a fixed square, the image cropped to fill it (no server-side resizing: any aspect ratio fits). */
export const COVER_BOX_PX = 240;

/**
 * The track's cover art (issue 25 §5), when the artist added one. Its signed URL lives minutes: an image
 * that fails to load (the URL expired before the browser asked) is left out rather than shown broken.
 */
function CoverArt({ url, trackName }: { url: string; trackName: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) return null;
  return (
    <img
      src={url}
      alt={`Cover art for ${trackName}`}
      width={COVER_BOX_PX}
      height={COVER_BOX_PX}
      referrerPolicy="no-referrer"
      onError={() => setFailed(true)}
      style={{ display: 'block', width: `min(${COVER_BOX_PX}px, 100%)`, height: 'auto', aspectRatio: '1 / 1', objectFit: 'cover', borderRadius: 8 }}
    />
  );
}

function Answers({ token, initial, initialNote, fetchImpl }: { token: string; initial: ListenAnswer | null; initialNote: string; fetchImpl?: typeof fetch }) {
  const [current, setCurrent] = useState(initial);
  const [note, setNote] = useState(initialNote);
  const [sending, setSending] = useState<ListenAnswer | null>(null);
  const [message, setMessage] = useState<{ type: 'success' | 'error'; text: string } | null>(null);
  const tooLong = note.length > listenLimits.noteMax;

  const answer = async (value: ListenAnswer) => {
    if (tooLong) return;
    setSending(value);
    setMessage(null);
    try {
      const saved = await sendListenAnswer(token, { answer: value, note }, fetchImpl);
      setCurrent(saved.answer);
      setMessage({ type: 'success', text: saved.message });
    } catch (error) {
      setMessage({ type: 'error', text: error instanceof ListenError && error.serverMessage ? error.serverMessage : 'Your answer was not sent. Try again.' });
    } finally {
      setSending(null);
    }
  };

  return (
    <Container
      header={
        <Header variant="h2" description="One click tells the artist. You can change it later.">
          Your answer
        </Header>
      }
    >
      <SpaceBetween size="m">
        <FormField
          label="Note (optional)"
          constraintText={`${note.length}/${listenLimits.noteMax} characters`}
          errorText={tooLong ? `Must be at most ${listenLimits.noteMax} characters` : undefined}
        >
          <Textarea value={note} onChange={({ detail }) => setNote(detail.value)} rows={3} ariaLabel="Note (optional)" />
        </FormField>
        <SpaceBetween size="xs" direction="horizontal">
          {listenAnswers.map((value) => (
            <Button
              key={value}
              variant={current === value ? 'primary' : 'normal'}
              loading={sending === value}
              disabled={sending !== null && sending !== value}
              onClick={() => void answer(value)}
              ariaLabel={current === value ? `${listenAnswerLabels[value]} (your answer)` : listenAnswerLabels[value]}
            >
              {listenAnswerLabels[value]}
            </Button>
          ))}
        </SpaceBetween>
        {message && (
          <div role="status">
            <StatusIndicator type={message.type}>{message.text}</StatusIndicator>
          </div>
        )}
      </SpaceBetween>
    </Container>
  );
}
