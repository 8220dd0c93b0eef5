/**
 * The listen page's player (issue 16): an <audio> element that streams the signed URL with Range
 * requests (preload metadata only), drawn by wavesurfer.js from the stored peaks, so the browser never
 * decodes the whole file. Keyboard: the Play / Pause and the 10-second skip buttons; the waveform is
 * also clickable. Reports plays, progress and seconds heard through `onReport`.
 */
import Box from '@cloudscape-design/components/box';
import Button from '@cloudscape-design/components/button';
import SpaceBetween from '@cloudscape-design/components/space-between';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import WaveSurfer from 'wavesurfer.js';
import { newListenSession, type ListenBeacon } from '../../api/listen';
import { clockTime, ListeningMeter } from './listening';

const SKIP_SECONDS = 10;
/** The signed URLs live minutes: an error sooner than this after a renewal is not another expiry. */
export const RENEW_MIN_INTERVAL_MS = 10_000;

export function WaveformPlayer({
  audioUrl,
  peaks,
  durationSeconds,
  trackName,
  onReport,
  onUrlExpired,
}: {
  audioUrl: string;
  peaks: number[];
  durationSeconds: number;
  trackName: string;
  onReport: (beacon: ListenBeacon) => void;
  /** The signed URL stopped working (it lives minutes): ask the page for a new one. */
  onUrlExpired: () => void;
}) {
  const container = useRef<HTMLDivElement>(null);
  const audio = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [position, setPosition] = useState(0);
  const report = useRef(onReport);
  useEffect(() => {
    report.current = onReport;
  }, [onReport]);
  const expired = useRef(onUrlExpired);
  useEffect(() => {
    expired.current = onUrlExpired;
  }, [onUrlExpired]);

  // A new signed URL: carry on where the old one stopped, playing if it was.
  const resume = useRef<{ at: number; play: boolean } | null>(null);
  /** When a new URL was last asked for (Date.now()). */
  const lastRenewal = useRef(Number.NEGATIVE_INFINITY);
  /**
   * Asks the page for a new URL that picks up where this one stopped (playing when `play`); false when
   * one was asked for less than RENEW_MIN_INTERVAL_MS ago: a URL that fails for another reason does not
   * loop page reads, and a renewal that failed (offline) is tried again at the next error or Play.
   */
  const renewUrl = useCallback((media: HTMLAudioElement, play: boolean) => {
    const now = Date.now();
    if (now - lastRenewal.current < RENEW_MIN_INTERVAL_MS) return false;
    lastRenewal.current = now;
    resume.current = { at: media.currentTime, play };
    expired.current();
    return true;
  }, []);
  // A layout effect: the listener is in place in the same commit that sets the new src, before the
  // element can load it.
  useLayoutEffect(() => {
    const media = audio.current;
    const pending = resume.current;
    if (!media || !pending) return;
    const restore = () => {
      media.currentTime = pending.at;
      if (pending.play) void media.play().catch(() => setPlaying(false));
      resume.current = null;
    };
    media.addEventListener('loadedmetadata', restore, { once: true });
    return () => media.removeEventListener('loadedmetadata', restore);
  }, [audioUrl]);

  useEffect(() => {
    const media = audio.current;
    const box = container.current;
    if (!media || !box) return;
    const waveform = WaveSurfer.create({
      container: box,
      media,
      peaks: [peaks.length > 0 ? peaks : [0]],
      duration: durationSeconds,
      height: 96,
      waveColor: '#8d99a8',
      progressColor: '#0972d3',
      cursorColor: '#0972d3',
      barWidth: 2,
      barGap: 1,
      barRadius: 2,
    });

    // One session per play from the start or after the end; a pause and resume is the same session.
    let session: string | null = null;
    // Whether the audio was playing when the element errored (an expired URL): the new one plays on.
    let playingBeforeError = false;
    let meter = new ListeningMeter(durationSeconds);
    const progress = () => {
      if (session) report.current({ type: 'progress', session, percent: meter.percent, seconds: meter.heardSeconds });
    };
    const onPlay = () => {
      setPlaying(true);
      if (session === null) {
        session = newListenSession();
        meter = new ListeningMeter(durationSeconds);
        report.current({ type: 'play', session });
      }
    };
    const onTime = () => {
      setPosition(media.currentTime);
      if (media.paused) return;
      meter.tick(media.currentTime);
      if (meter.newMilestone() !== undefined) progress();
    };
    const onPause = () => {
      setPlaying(false);
      playingBeforeError = false;
      meter.pause();
      progress();
    };
    const onSeeking = () => meter.pause();
    const onEnded = () => {
      meter.finish();
      meter.newMilestone();
      progress();
      setPlaying(false);
      session = null;
    };
    // The page going away (a tab closed, the phone locked): what was heard so far.
    const onHidden = () => {
      if (document.visibilityState === 'hidden') progress();
    };
    // The storage refuses an expired signed URL: the element errors; a new URL picks up from here.
    const onError = () => void renewUrl(media, !media.paused || playingBeforeError);
    const onPlaying = () => {
      playingBeforeError = true;
    };
    // One signal removes every listener when the player goes.
    const listening = new AbortController();
    const on = { signal: listening.signal };
    media.addEventListener('error', onError, on);
    media.addEventListener('playing', onPlaying, on);
    media.addEventListener('play', onPlay, on);
    media.addEventListener('timeupdate', onTime, on);
    media.addEventListener('pause', onPause, on);
    media.addEventListener('seeking', onSeeking, on);
    media.addEventListener('ended', onEnded, on);
    document.addEventListener('visibilitychange', onHidden, on);
    return () => {
      listening.abort();
      waveform.destroy();
    };
  }, [peaks, durationSeconds, renewUrl]);

  const toggle = () => {
    const media = audio.current;
    if (!media) return;
    if (!media.paused) {
      media.pause();
      return;
    }
    // An element that errored (its renewal failed offline) may not error again on play() with the same
    // URL: ask for a new one from here, to play.
    if (media.error !== null && renewUrl(media, true)) return;
    void media.play().catch(() => setPlaying(false));
  };
  const skip = (by: number) => {
    const media = audio.current;
    if (media) media.currentTime = Math.min(durationSeconds, Math.max(0, media.currentTime + by));
  };

  return (
    <SpaceBetween size="s">
      {/* The waveform is a picture of the track; the buttons below are its keyboard controls. */}
      <div ref={container} aria-hidden="true" data-testid="waveform" style={{ cursor: 'pointer', minHeight: 96 }} />
      <audio ref={audio} src={audioUrl} preload="metadata" aria-label={`${trackName} audio`} data-testid="listen-audio" />
      <SpaceBetween size="xs" direction="horizontal" alignItems="center">
        <Button variant="primary" iconName={playing ? 'pause' : 'play'} onClick={toggle} ariaLabel={playing ? `Pause ${trackName}` : `Play ${trackName}`}>
          {playing ? 'Pause' : 'Play'}
        </Button>
        <Button iconName="undo" onClick={() => skip(-SKIP_SECONDS)} ariaLabel={`Back ${SKIP_SECONDS} seconds`}>
          {`-${SKIP_SECONDS} s`}
        </Button>
        <Button iconName="redo" onClick={() => skip(SKIP_SECONDS)} ariaLabel={`Forward ${SKIP_SECONDS} seconds`}>
          {`+${SKIP_SECONDS} s`}
        </Button>
        <Box variant="span" color="text-body-secondary">
          <span aria-live="off" data-testid="listen-position">{`${clockTime(position)} / ${clockTime(durationSeconds)}`}</span>
        </Box>
      </SpaceBetween>
    </SpaceBetween>
  );
}
