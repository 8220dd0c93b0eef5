/**
 * The listen page's player when its signed audio URL expires (issue 16, DESIGN §12: short-lived signed
 * URLs, minutes): the storage refuses the next Range request (a 403), the <audio> element errors, and the
 * page asks for its data again and carries on with the fresh URL where the listener was, playing if they
 * were. A listener who paused for 20 minutes can still play. wavesurfer.js only draws, so it is a stub;
 * the <audio> element is jsdom's with play, pause and the playhead driven by the test.
 */
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ListenPage as ListenPageData } from '../../schema/api/listenValues';
import ListenPage from '../../web/src/pages/listen/ListenPage';
import { RENEW_MIN_INTERVAL_MS } from '../../web/src/pages/listen/WaveformPlayer';

vi.mock('wavesurfer.js', () => ({ default: { create: () => ({ destroy: () => undefined }) } }));

const TOKEN = 'Q0FGRUJBQkVDQUZFQkFCRUNBRkVCQUJFQ0FGRUJBQkU';
const signedUrl = (n: number) => `https://audio.example/tracks/u/t?X-Amz-Signature=${n}`;

function readyPage(audioUrl: string): Extract<ListenPageData, { state: 'ready' }> {
  return {
    state: 'ready',
    artist_name: 'DJ Nova',
    track_name: 'Night Drive',
    description: 'A rolling late-night groove.',
    duration_seconds: 240,
    peaks: [0.1, 0.6, 0.3],
    audio_url: audioUrl,
    download_url: null,
    answer: null,
    answer_note: null,
    expires_at: '2027-02-24T10:00:00.000Z',
  };
}

/** GET /api/l/{token}: a new signed URL each time, as the server signs one per read. */
function fakeListenServer() {
  let reads = 0;
  const fetchImpl = vi.fn<typeof fetch>((input) => {
    const path = new URL(input as string, 'http://localhost').pathname;
    if (path !== `/api/l/${TOKEN}`) return Promise.resolve(new Response('{}', { status: 404 }));
    reads += 1;
    return Promise.resolve(new Response(JSON.stringify(readyPage(signedUrl(reads))), { status: 200, headers: { 'content-type': 'application/json' } }));
  });
  return { fetchImpl, reads: () => reads };
}

/** The page's <audio> with what jsdom does not do: play and pause (with their events) and a playhead the test moves. */
function controlAudio() {
  const media = screen.getByTestId<HTMLAudioElement>('listen-audio');
  let paused = true;
  let time = 0;
  const play = vi.fn(() => {
    paused = false;
    media.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  Object.defineProperties(media, {
    paused: { get: () => paused, configurable: true },
    currentTime: {
      get: () => time,
      set: (value: number) => {
        time = value;
      },
      configurable: true,
    },
    play: { value: play, configurable: true },
    pause: {
      value: () => {
        paused = true;
        media.dispatchEvent(new Event('pause'));
      },
      configurable: true,
    },
  });
  const fire = (type: string) => act(() => void media.dispatchEvent(new Event(type)));
  return {
    media,
    play,
    fire,
    /** Plays to `seconds` as the browser reports it. */
    playTo(seconds: number) {
      time = seconds;
      fire('playing');
      fire('timeupdate');
    },
  };
}

async function openPage() {
  const server = fakeListenServer();
  render(
    <MemoryRouter initialEntries={[`/l/${TOKEN}`]}>
      <Routes>
        <Route path="/l/:token" element={<ListenPage fetchImpl={server.fetchImpl} />} />
      </Routes>
    </MemoryRouter>,
  );
  await screen.findByRole('heading', { name: 'Night Drive', level: 1 });
  const audio = controlAudio();
  // The page opens with the audio's metadata read (preload="metadata"): the URL worked.
  audio.fire('loadedmetadata');
  return { server, audio, user: userEvent.setup() };
}

beforeEach(() => {
  // Beacons go out with sendBeacon; the test does not read them.
  Object.defineProperty(navigator, 'sendBeacon', { value: vi.fn(() => true), configurable: true });
});
afterEach(() => {
  Reflect.deleteProperty(navigator, 'sendBeacon');
});

describe('listen player: an expired signed audio URL', () => {
  it('after a 20-minute pause, Play fetches the page again for a fresh URL and plays on from the same position', async () => {
    const { server, audio, user } = await openPage();
    expect(audio.media.getAttribute('src')).toBe(signedUrl(1));

    await user.click(screen.getByRole('button', { name: 'Play Night Drive' }));
    audio.playTo(42);
    expect(screen.getByTestId('listen-position')).toHaveTextContent('0:42 / 4:00');
    await user.click(screen.getByRole('button', { name: 'Pause Night Drive' }));
    expect(server.reads()).toBe(1);

    // Twenty minutes later the URL has expired: Play, and the storage refuses the next Range request.
    await user.click(screen.getByRole('button', { name: 'Play Night Drive' }));
    expect(audio.play).toHaveBeenCalledTimes(2);
    audio.fire('error');
    await waitFor(() => expect(audio.media.getAttribute('src')).toBe(signedUrl(2)));
    expect(server.reads()).toBe(2);

    // The fresh URL's metadata: back at 0:42, playing.
    audio.fire('loadedmetadata');
    expect(audio.media.currentTime).toBe(42);
    expect(audio.play).toHaveBeenCalledTimes(3);
    expect(screen.getByRole('button', { name: 'Pause Night Drive' })).toBeInTheDocument();
  });

  it('an expiry noticed while paused (the browser reading ahead) renews the URL and keeps the position, without playing', async () => {
    const { server, audio, user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Play Night Drive' }));
    audio.playTo(95);
    await user.click(screen.getByRole('button', { name: 'Pause Night Drive' }));

    audio.fire('error');
    await waitFor(() => expect(audio.media.getAttribute('src')).toBe(signedUrl(2)));
    expect(server.reads()).toBe(2);
    audio.fire('loadedmetadata');
    expect(audio.media.currentTime).toBe(95);
    expect(audio.play).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('button', { name: 'Play Night Drive' })).toBeInTheDocument();
  });

  it('an error while playing renews the URL and plays on from where it stopped', async () => {
    const { server, audio, user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Play Night Drive' }));
    audio.playTo(130);
    audio.fire('error');
    await waitFor(() => expect(audio.media.getAttribute('src')).toBe(signedUrl(2)));
    expect(server.reads()).toBe(2);
    audio.fire('loadedmetadata');
    expect(audio.media.currentTime).toBe(130);
    expect(audio.play).toHaveBeenCalledTimes(2);
  });

  it('renews at most once per RENEW_MIN_INTERVAL_MS: a fresh URL that fails at once does not loop page reads; a later error renews again', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 10, 26, 10, 0, 0));
    const { server, audio, user } = await openPage();
    await user.click(screen.getByRole('button', { name: 'Play Night Drive' }));
    audio.playTo(10);
    audio.fire('error');
    await waitFor(() => expect(audio.media.getAttribute('src')).toBe(signedUrl(2)));
    // The new URL fails too, at once: not an expiry, so no third read.
    audio.fire('error');
    audio.fire('error');
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(server.reads()).toBe(2);
    expect(audio.media.getAttribute('src')).toBe(signedUrl(2));

    // Later (a renewal that failed offline, or the next expiry): renewed again.
    vi.setSystemTime(Date.now() + RENEW_MIN_INTERVAL_MS);
    audio.fire('error');
    await waitFor(() => expect(audio.media.getAttribute('src')).toBe(signedUrl(3)));
    expect(server.reads()).toBe(3);
  });
});
