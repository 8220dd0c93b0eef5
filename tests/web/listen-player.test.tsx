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
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { listenMessages, type ListenPage as ListenPageData } from '../../schema/api/listenValues';
import ListenPage, { LISTEN_URLS_FRESH_MS } from '../../web/src/pages/listen/ListenPage';
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
    cover_url: null,
    answer: null,
    answer_note: null,
    expires_at: '2027-02-24T10:00:00.000Z',
  };
}

const signedDownloadUrl = (n: number) => `https://audio.example/tracks/u/t?response-content-disposition=attachment&X-Amz-Signature=${n}`;

/** What a read of the page answers: the player, a link that expired or a track removed since, or no network. */
type Answer = 'ready' | 'expired' | 'track_deleted' | 'offline';

/**
 * GET /api/l/{token}: a new signed URL each time, as the server signs one per read; `answer(read)` says
 * what the read with that number (from 1) answers, the player by default.
 */
function fakeListenServer({
  answer = () => 'ready',
  downloads = false,
  cover = null,
}: { answer?: (read: number) => Answer; downloads?: boolean; cover?: string | null } = {}) {
  let reads = 0;
  const fetchImpl = vi.fn<typeof fetch>((input) => {
    const path = new URL(input as string, 'http://localhost').pathname;
    if (path !== `/api/l/${TOKEN}`) return Promise.resolve(new Response('{}', { status: 404 }));
    reads += 1;
    const json = (body: unknown, status: number) =>
      Promise.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
    switch (answer(reads)) {
      case 'offline':
        return Promise.reject(new TypeError('Failed to fetch'));
      case 'expired':
        return json({ state: 'expired', artist_name: 'DJ Nova', message: listenMessages.expired }, 410);
      case 'track_deleted':
        return json({ state: 'track_deleted', artist_name: 'DJ Nova', message: listenMessages.trackDeleted }, 410);
      case 'ready':
        return json({ ...readyPage(signedUrl(reads)), download_url: downloads ? signedDownloadUrl(reads) : null, cover_url: cover }, 200);
    }
  });
  return { fetchImpl, reads: () => reads };
}

/** The page's <audio> with what jsdom does not do: play and pause (with their events) and a playhead the test moves. */
function controlAudio() {
  const media = screen.getByTestId<HTMLAudioElement>('listen-audio');
  let paused = true;
  let time = 0;
  let error: MediaError | null = null;
  const play = vi.fn(() => {
    paused = false;
    media.dispatchEvent(new Event('play'));
    return Promise.resolve();
  });
  Object.defineProperties(media, {
    paused: { get: () => paused, configurable: true },
    error: { get: () => error, configurable: true },
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
    /** The storage refuses the URL: the element keeps its error until it loads another. */
    fail() {
      error = { code: 4, message: 'MEDIA_ERR_SRC_NOT_SUPPORTED' } as MediaError;
      fire('error');
    },
    /** Plays to `seconds` as the browser reports it. */
    playTo(seconds: number) {
      time = seconds;
      fire('playing');
      fire('timeupdate');
    },
  };
}

async function openPage(server = fakeListenServer()) {
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

describe('listen page: what it says', () => {
  it('is titled with the track name and names the artist once', async () => {
    await openPage();
    expect(document.title).toContain('Night Drive');
    expect(screen.getAllByText(/DJ Nova/)).toHaveLength(1);
    expect(screen.getByText('By DJ Nova')).toBeInTheDocument();
  });

  it('shows the cover art in a fixed square box, named for the track (issue 25 §5)', async () => {
    const coverUrl = 'https://audio.example/tracks/u/t-cover?X-Amz-Signature=1';
    await openPage(fakeListenServer({ cover: coverUrl }));
    const cover = screen.getByRole<HTMLImageElement>('img', { name: 'Cover art for Night Drive' });
    expect(cover.getAttribute('src')).toBe(coverUrl);
    expect(cover.style.objectFit).toBe('cover');
    expect(cover.style.aspectRatio).toBe('1 / 1');
    expect([cover.getAttribute('width'), cover.getAttribute('height')]).toEqual(['240', '240']);
    // A URL that no longer loads leaves the box out rather than a broken image.
    act(() => void cover.dispatchEvent(new Event('error')));
    expect(screen.queryByRole('img', { name: 'Cover art for Night Drive' })).toBeNull();
  });

  it('shows no image when the track has no cover art', async () => {
    await openPage();
    expect(screen.queryByRole('img', { name: /Cover art/ })).toBeNull();
  });
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
    // Only Date: the page's promises and waitFor run as usual (tests/web/setup.ts restores real timers).
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

describe('listen player: a renewal that does not give a new URL', () => {
  it('a renewal that answers the link expired shows the expired page instead of a player that does nothing', async () => {
    const { audio, user } = await openPage(fakeListenServer({ answer: (read) => (read === 1 ? 'ready' : 'expired') }));
    await user.click(screen.getByRole('button', { name: 'Play Night Drive' }));
    audio.playTo(30);
    audio.fail();
    expect(await screen.findByText(listenMessages.expired)).toBeInTheDocument();
    expect(screen.getByText('Link expired')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Play Night Drive|Pause Night Drive/ })).toBeNull();
  });

  it('a renewal that failed offline is tried again by Play, though the errored element does not error again; at most once per RENEW_MIN_INTERVAL_MS', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2026, 10, 26, 10, 0, 0));
    const { server, audio, user } = await openPage(fakeListenServer({ answer: (read) => (read === 2 ? 'offline' : 'ready') }));
    await user.click(screen.getByRole('button', { name: 'Play Night Drive' }));
    audio.playTo(64);
    await user.click(screen.getByRole('button', { name: 'Pause Night Drive' }));

    // Twenty minutes later: Play, the storage refuses the old URL, and the renewal finds no network.
    vi.setSystemTime(Date.now() + 20 * 60_000);
    await user.click(screen.getByRole('button', { name: 'Play Night Drive' }));
    audio.fail();
    await waitFor(() => expect(server.reads()).toBe(2));
    await user.click(screen.getByRole('button', { name: 'Pause Night Drive' }));
    expect(audio.media.getAttribute('src')).toBe(signedUrl(1));

    // Pressed again at once: the element is asked to play, no second page read within the interval.
    await user.click(screen.getByRole('button', { name: 'Play Night Drive' }));
    expect(audio.play).toHaveBeenCalledTimes(3);
    expect(server.reads()).toBe(2);
    await user.click(screen.getByRole('button', { name: 'Pause Night Drive' }));

    // Back online, later: Play asks for a new URL itself (the element fires no new error) and plays on from 1:04.
    vi.setSystemTime(Date.now() + RENEW_MIN_INTERVAL_MS);
    await user.click(screen.getByRole('button', { name: 'Play Night Drive' }));
    await waitFor(() => expect(audio.media.getAttribute('src')).toBe(signedUrl(3)));
    expect(server.reads()).toBe(3);
    expect(audio.play).toHaveBeenCalledTimes(3);
    audio.fire('loadedmetadata');
    expect(audio.media.currentTime).toBe(64);
    expect(audio.play).toHaveBeenCalledTimes(4);
  });
});

/**
 * What leaves the page, in order: a link the browser would follow (a click not prevented; jsdom does not
 * navigate, so every link click is stopped after it is logged) and each beacon sent.
 */
function watchLeaving() {
  const log: string[] = [];
  const beacons: Blob[] = [];
  Object.defineProperty(navigator, 'sendBeacon', {
    value: vi.fn((_url: string, body: Blob) => {
      log.push('beacon');
      beacons.push(body);
      return true;
    }),
    configurable: true,
  });
  const onClick = (event: MouseEvent) => {
    const link = event.target instanceof Element ? event.target.closest('a') : null;
    if (!link) return;
    log.push(`${event.defaultPrevented ? 'prevented' : 'follow'} ${link.getAttribute('href') ?? ''}`);
    event.preventDefault();
  };
  // On the document: after the page's own handlers (React listens on its root, below it).
  document.addEventListener('click', onClick);
  onTestFinished(() => document.removeEventListener('click', onClick));
  return { log, beaconTypes: () => Promise.all(beacons.map(async (blob) => (JSON.parse(await blob.text()) as { type: string }).type)) };
}

describe('listen page: Download with signed URLs that live ten minutes', () => {
  const opened = Date.UTC(2026, 10, 26, 10, 0, 0);
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(opened);
  });

  it('within nine minutes of opening, Download is a plain link to the URL the page has, and counts the download', async () => {
    const { server, user } = await openPage(fakeListenServer({ downloads: true }));
    const leaving = watchLeaving();
    vi.setSystemTime(opened + LISTEN_URLS_FRESH_MS - 60_000);
    await user.click(screen.getByRole('link', { name: 'Download' }));
    expect(leaving.log).toEqual(['beacon', `follow ${signedDownloadUrl(1)}`]);
    expect(await leaving.beaconTypes()).toEqual(['download']);
    expect(server.reads()).toBe(1);
  });

  it('eleven minutes after opening, Download (keyboard) reads the page again and downloads from the fresh URL, counted only then', async () => {
    const { server, user } = await openPage(fakeListenServer({ downloads: true }));
    const leaving = watchLeaving();
    vi.setSystemTime(opened + 11 * 60_000);
    screen.getByRole('link', { name: 'Download' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(leaving.log).toHaveLength(3));
    expect(leaving.log).toEqual([`prevented ${signedDownloadUrl(1)}`, `follow ${signedDownloadUrl(2)}`, 'beacon']);
    expect(await leaving.beaconTypes()).toEqual(['download']);
    expect(server.reads()).toBe(2);

    // The page's URLs are the fresh ones now: the next click is a plain link again.
    await waitFor(() => expect(screen.getByRole('link', { name: 'Download' })).toHaveAttribute('href', signedDownloadUrl(2)));
    await user.click(screen.getByRole('link', { name: 'Download' }));
    expect(leaving.log.slice(3)).toEqual(['beacon', `follow ${signedDownloadUrl(2)}`]);
    expect(server.reads()).toBe(2);
  });

  it('a stale Download while the track plays takes only the fresh download URL: the player keeps its audio and plays on', async () => {
    const { server, audio, user } = await openPage(fakeListenServer({ downloads: true }));
    const leaving = watchLeaving();
    await user.click(screen.getByRole('button', { name: 'Play Night Drive' }));
    audio.playTo(95);
    vi.setSystemTime(opened + 11 * 60_000);
    await user.click(screen.getByRole('link', { name: 'Download' }));
    await waitFor(() => expect(leaving.log).toContain(`follow ${signedDownloadUrl(2)}`));
    expect(server.reads()).toBe(2);
    expect(audio.media.getAttribute('src')).toBe(signedUrl(1));
    expect(audio.media.currentTime).toBe(95);
    expect(screen.getByRole('button', { name: 'Pause Night Drive' })).toBeInTheDocument();
  });

  it('an old URL and a track removed since: the removed page, no download, nothing counted', async () => {
    const { user } = await openPage(fakeListenServer({ downloads: true, answer: (read) => (read === 1 ? 'ready' : 'track_deleted') }));
    const leaving = watchLeaving();
    vi.setSystemTime(opened + 11 * 60_000);
    await user.click(screen.getByRole('link', { name: 'Download' }));
    expect(await screen.findByText(listenMessages.trackDeleted)).toBeInTheDocument();
    expect(screen.getByText('Track removed')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Download' })).toBeNull();
    expect(leaving.log).toEqual([`prevented ${signedDownloadUrl(1)}`]);
  });

  it('an old URL and no network: says the download did not start and counts nothing; the next click tries again', async () => {
    const { server, user } = await openPage(fakeListenServer({ downloads: true, answer: (read) => (read === 2 ? 'offline' : 'ready') }));
    const leaving = watchLeaving();
    vi.setSystemTime(opened + 11 * 60_000);
    await user.click(screen.getByRole('link', { name: 'Download' }));
    expect(await screen.findByText('The download did not start. Check your connection and try again.')).toBeInTheDocument();
    expect(leaving.log).toEqual([`prevented ${signedDownloadUrl(1)}`]);

    await user.click(screen.getByRole('link', { name: 'Download' }));
    await waitFor(() => expect(leaving.log).toHaveLength(4));
    expect(leaving.log.slice(1)).toEqual([`prevented ${signedDownloadUrl(1)}`, `follow ${signedDownloadUrl(3)}`, 'beacon']);
    expect(server.reads()).toBe(3);
    expect(screen.queryByText('The download did not start. Check your connection and try again.')).toBeNull();
  });
});
