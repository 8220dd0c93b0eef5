/**
 * 'Upload track' and 'My tracks' on Compose (issue 16): the browser's checks before an upload, the
 * upload straight to storage with its progress (a fake XMLHttpRequest reports it), the waveform sent on
 * complete (a fake Web Audio decodes), the server's refusal shown, and the picker's choose and delete.
 */
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useCallback, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { trackMessages, type Track, type TrackSummary } from '../../schema/api/tracks';
import { createApiClient } from '../../web/src/api/client';
import { AuthContext } from '../../web/src/auth/AuthContext';
import { TrackUploader } from '../../web/src/pages/compose/TrackUploader';
import { json } from './contacts-fake-server';
import { makeFakeAuth } from './helpers';

const UPLOAD_URL = 'https://tp-audio.s3.eu-west-1.amazonaws.com/';
const summary = (id: string, name: string, seconds: number, format: TrackSummary['format'] = 'wav'): TrackSummary => ({
  id,
  name,
  format,
  content_type: 'audio/wav',
  duration_seconds: seconds,
  sample_rate: 44100,
  size_bytes: 1000,
  created_at: '2026-11-20T10:00:00.000Z',
});

/** The storage's side: each XHR the uploader opens, to drive its progress and answer. */
class FakeXhr {
  static opened: FakeXhr[] = [];
  method = '';
  url = '';
  status = 0;
  body: FormData | undefined;
  private listeners = new Map<string, (event: unknown) => void>();
  private uploadListeners = new Map<string, (event: unknown) => void>();
  upload = { addEventListener: (type: string, listener: (event: unknown) => void) => this.uploadListeners.set(type, listener) };
  addEventListener(type: string, listener: (event: unknown) => void) {
    this.listeners.set(type, listener);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  send(body: FormData) {
    this.body = body;
    FakeXhr.opened.push(this);
  }
  abort() {
    this.listeners.get('abort')?.({});
  }
  progress(loaded: number, total: number) {
    act(() => this.uploadListeners.get('progress')?.({ lengthComputable: true, loaded, total }));
  }
  answer(status: number) {
    this.status = status;
    act(() => this.listeners.get('load')?.({}));
  }
}

interface ApiCall {
  method: string;
  path: string;
  body: unknown;
}

function fakeApi(answers: { complete?: () => Response; coverComplete?: () => Response; remove?: () => Response; tracks?: TrackSummary[] } = {}) {
  const calls: ApiCall[] = [];
  let tracks = [...(answers.tracks ?? [])];
  const fetchImpl = vi.fn((input: string | URL, init?: RequestInit) => {
    const path = new URL(input, 'http://app.test').pathname;
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, path, body });
    if (method === 'POST' && path === '/api/tracks/uploads') {
      return Promise.resolve(
        json(
          {
            track_id: '01KAKZ3R0000000000000000AA',
            upload: {
              url: UPLOAD_URL,
              fields: { key: 'tracks/u/01KAKZ3R0000000000000000AA', 'Content-Type': 'audio/wav', Policy: 'p' },
              expires_at: '2026-11-26T10:00:00.000Z',
            },
          },
          201,
        ),
      );
    }
    if (method === 'POST' && path.endsWith('/cover/uploads')) {
      const upload = { url: UPLOAD_URL, fields: { key: 'uploads/u/cover', 'Content-Type': 'image/png', Policy: 'p' }, expires_at: '2026-11-26T10:00:00.000Z' };
      return Promise.resolve(json({ upload }, 201));
    }
    if (method === 'POST' && path.endsWith('/cover/complete')) {
      const track: Track = { ...summary('01KAKZ3R0000000000000000AA', 'Night Drive', 2.4), peaks: [], cover_type: 'image/png' };
      return Promise.resolve(answers.coverComplete?.() ?? json(track, 200));
    }
    if (method === 'POST' && path.endsWith('/complete')) {
      const track: Track = { ...summary('01KAKZ3R0000000000000000AA', 'Night Drive', 2.4), peaks: [] };
      return Promise.resolve(answers.complete?.() ?? json(track, 201));
    }
    if (method === 'GET' && path === '/api/tracks') return Promise.resolve(json({ tracks }));
    if (method === 'DELETE') {
      const refused = answers.remove?.();
      if (refused) return Promise.resolve(refused);
      tracks = tracks.filter((track) => !path.endsWith(track.id));
      return Promise.resolve(new Response(null, { status: 204 }));
    }
    return Promise.resolve(json({ message: 'Not Found' }, 404));
  });
  return { calls, api: createApiClient(() => Promise.resolve('test-token'), fetchImpl as unknown as typeof fetch) };
}

/** The uploader as the compose form holds it: the chosen track's id in the form's state. */
function renderUploader(api: ReturnType<typeof fakeApi>['api']) {
  const onChoose = vi.fn();
  function ComposeForm() {
    const [trackId, setTrackId] = useState('');
    const choose = useCallback((track: TrackSummary | null) => {
      onChoose(track);
      setTrackId(track?.id ?? '');
    }, []);
    return <TrackUploader trackId={trackId} onChoose={choose} />;
  }
  render(
    <AuthContext.Provider value={makeFakeAuth({ api })}>
      <ComposeForm />
    </AuthContext.Provider>,
  );
  return onChoose;
}

const fileInput = () => screen.getByLabelText<HTMLInputElement>('Track file');
const wavFile = (name = 'Night Drive.wav', bytes = 4000) => new File([new Uint8Array(bytes)], name, { type: 'audio/wav' });

beforeEach(() => {
  FakeXhr.opened = [];
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Upload track', () => {
  it('uploads straight to storage with a progress bar, sends the waveform on complete and shows the track', async () => {
    // Web Audio decodes the file: one channel rising from 0 to 1.
    const samples = Float32Array.from({ length: 8000 }, (_, i) => i / 7999);
    vi.stubGlobal(
      'AudioContext',
      class {
        decodeAudioData = () => Promise.resolve({ numberOfChannels: 1, getChannelData: () => samples });
        close = () => Promise.resolve();
      },
    );
    const { api, calls } = fakeApi();
    const onChoose = renderUploader(api);
    const user = userEvent.setup();
    await user.upload(fileInput(), wavFile());

    await waitFor(() => expect(FakeXhr.opened).toHaveLength(1));
    expect(calls[0]).toEqual({ method: 'POST', path: '/api/tracks/uploads', body: { name: 'Night Drive', content_type: 'audio/wav', size: 4000 } });
    const xhr = FakeXhr.opened[0]!;
    expect([xhr.method, xhr.url]).toEqual(['POST', UPLOAD_URL]);
    // The form's fields in order, then the file last (as S3 requires).
    expect([...xhr.body!.keys()]).toEqual(['key', 'Content-Type', 'Policy', 'file']);

    xhr.progress(1000, 4000);
    const bar = () => createWrapper().findProgressBar()!;
    expect(bar().findResultText()?.getElement().textContent ?? bar().getElement().textContent).toContain('25');
    xhr.progress(3000, 4000);
    expect(bar().getElement().textContent).toContain('75');
    xhr.answer(204);

    await screen.findByText('Night Drive · 0:02 · WAV');
    const complete = calls.find((call) => call.path.endsWith('/complete'))!;
    const peaks = (complete.body as { peaks: number[] }).peaks;
    expect(peaks).toHaveLength(800);
    expect(peaks[0]).toBeLessThan(0.01);
    expect(peaks[799]).toBe(1);
    expect(onChoose).toHaveBeenCalledWith(expect.objectContaining({ id: '01KAKZ3R0000000000000000AA' }));
    expect(createWrapper().findProgressBar()).toBeNull();
  });

  it('sends no waveform when the browser cannot decode the file', async () => {
    vi.stubGlobal(
      'AudioContext',
      class {
        decodeAudioData = () => Promise.reject(new Error('EncodingError'));
        close = () => Promise.resolve();
      },
    );
    const { api, calls } = fakeApi();
    renderUploader(api);
    await userEvent.setup().upload(fileInput(), wavFile());
    await waitFor(() => expect(FakeXhr.opened).toHaveLength(1));
    FakeXhr.opened[0]!.answer(204);
    await screen.findByText('Night Drive · 0:02 · WAV');
    expect(calls.find((call) => call.path.endsWith('/complete'))?.body).toEqual({});
  });

  it('refuses a file that is not one of the formats, or over 200 MB, before any request', async () => {
    const { api, calls } = fakeApi();
    renderUploader(api);
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(fileInput(), new File(['lyrics'], 'lyrics.txt', { type: 'text/plain' }));
    expect(await screen.findByText(trackMessages.unsupportedType)).toBeInTheDocument();
    const huge = wavFile('Long Mix.wav', 10);
    Object.defineProperty(huge, 'size', { value: 200 * 1024 * 1024 + 1 });
    await user.upload(fileInput(), huge);
    expect(await screen.findByText(trackMessages.tooLarge)).toBeInTheDocument();
    expect(calls).toEqual([]);
    expect(FakeXhr.opened).toEqual([]);
  });

  it("shows the storage's refusal and the server's, and chooses no track", async () => {
    const { api } = fakeApi({ complete: () => json({ message: trackMessages.notAudio, code: 'not_audio' }, 400) });
    const onChoose = renderUploader(api);
    const user = userEvent.setup();
    await user.upload(fileInput(), wavFile());
    await waitFor(() => expect(FakeXhr.opened).toHaveLength(1));
    FakeXhr.opened[0]!.answer(403);
    expect(await screen.findByText('The upload was refused (403). Please try again.')).toBeInTheDocument();

    await user.upload(fileInput(), wavFile('renamed.mp3'));
    await waitFor(() => expect(FakeXhr.opened).toHaveLength(2));
    FakeXhr.opened[1]!.answer(204);
    expect(await screen.findByText(trackMessages.notAudio)).toBeInTheDocument();
    expect(onChoose).not.toHaveBeenCalled();
  });
});

describe('My tracks', () => {
  const older = summary('01KAKZ3R0000000000000000AB', 'Sunrise Edit', 212.5, 'mp3');
  const newer = summary('01KAKZ3R0000000000000000AC', 'Night Drive', 95, 'flac');

  it('lists the uploaded tracks with their duration, and uses the one chosen', async () => {
    const { api } = fakeApi({ tracks: [newer, older] });
    const onChoose = renderUploader(api);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'My tracks' }));
    const dialog = await screen.findByRole('dialog', { name: 'My tracks' });
    await within(dialog).findByText('Sunrise Edit');
    const table = createWrapper(dialog).findTable()!;
    expect(table.findRows().map((row) => row.getElement().textContent)).toEqual([
      expect.stringContaining('Night Drive1:35FLAC'),
      expect.stringContaining('Sunrise Edit3:33MP3'),
    ]);
    await user.click(within(dialog).getByRole('radio', { name: 'Sunrise Edit' }));
    await user.click(within(dialog).getByRole('button', { name: 'Use track' }));
    expect(onChoose).toHaveBeenCalledWith(older);
    expect(await screen.findByText('Sunrise Edit · 3:33 · MP3')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove the track' }));
    expect(onChoose).toHaveBeenLastCalledWith(null);
    expect(screen.queryByText('Sunrise Edit · 3:33 · MP3')).toBeNull();
  });

  it('deletes a track only after confirmation', async () => {
    const { api, calls } = fakeApi({ tracks: [newer, older] });
    renderUploader(api);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'My tracks' }));
    const dialog = await screen.findByRole('dialog', { name: 'My tracks' });
    await within(dialog).findByText('Night Drive');
    await user.click(within(dialog).getByRole('radio', { name: 'Night Drive' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    const confirm = await screen.findByRole('dialog', { name: 'Delete track' });
    expect(calls.filter((call) => call.method === 'DELETE')).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(calls.filter((call) => call.method === 'DELETE')).toEqual([]);

    await user.click(within(await screen.findByRole('dialog', { name: 'My tracks' })).getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete track' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([`/api/tracks/${newer.id}`]));
    const picker = await screen.findByRole('dialog', { name: 'My tracks' });
    await waitFor(() => expect(within(picker).queryByText('Night Drive')).toBeNull());
    expect(within(picker).getByText('Sunrise Edit')).toBeInTheDocument();
  });

  it("a track campaigns still send with is kept: the server's refusal names them in My tracks", async () => {
    const inUse = trackMessages.inUse(['Night Drive to Labels', 'Night Drive to DJs']);
    const { api, calls } = fakeApi({ tracks: [newer, older], remove: () => json({ message: inUse, code: 'track_in_use' }, 409) });
    renderUploader(api);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'My tracks' }));
    const dialog = await screen.findByRole('dialog', { name: 'My tracks' });
    await user.click(await within(dialog).findByRole('radio', { name: 'Night Drive' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Delete track' })).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1));

    const picker = await screen.findByRole('dialog', { name: 'My tracks' });
    expect(
      await within(picker).findByText(
        'This track is used by campaigns still sending: "Night Drive to Labels", "Night Drive to DJs". Their emails link to it: delete it once they finish.',
      ),
    ).toBeInTheDocument();
    // Still listed, and still selected to use.
    expect(within(picker).getByText('Night Drive')).toBeInTheDocument();
    expect(within(picker).getByRole('radio', { name: 'Night Drive' })).toBeChecked();
  });
});

/**
 * Cover art (issue 25 §5): the chosen track takes an optional image through the same two steps; the
 * picker offers only JPEG, PNG and WebP, the browser refuses another type or more than 5 MB before any
 * request, and the server's refusal (by the bytes) is shown with the rule.
 */
describe('Cover art', () => {
  const track = summary('01KAKZ3R0000000000000000AA', 'Night Drive', 2.4);
  const coverInput = () => screen.getByLabelText<HTMLInputElement>('Cover art file');
  const png = (name = 'cover.png', bytes = 70) => new File([new Uint8Array(bytes)], name, { type: 'image/png' });

  async function chooseTrack() {
    const { api, calls } = fakeApi({ tracks: [track] });
    const onChoose = renderUploader(api);
    const user = userEvent.setup({ applyAccept: false });
    expect(screen.queryByLabelText('Cover art file')).toBeNull(); // no track, no cover
    await user.click(screen.getByRole('button', { name: 'My tracks' }));
    const dialog = await screen.findByRole('dialog', { name: 'My tracks' });
    await user.click(await within(dialog).findByRole('radio', { name: 'Night Drive' }));
    await user.click(within(dialog).getByRole('button', { name: 'Use track' }));
    await screen.findByRole('button', { name: 'Add cover art' });
    calls.length = 0;
    return { calls, onChoose, user };
  }

  it('offers only JPEG, PNG and WebP, and says the rule', async () => {
    await chooseTrack();
    expect(coverInput().accept.split(',').sort()).toEqual(['.jpeg', '.jpg', '.png', '.webp', 'image/jpeg', 'image/png', 'image/webp']);
    expect(screen.getByText('JPEG, PNG or WebP, up to 5 MB. Shown on the listen page.')).toBeInTheDocument();
  });

  it('uploads the image straight to storage, completes it and shows the cover added', async () => {
    const { calls, onChoose, user } = await chooseTrack();
    await user.upload(coverInput(), png());
    await waitFor(() => expect(FakeXhr.opened).toHaveLength(1));
    expect(calls[0]).toEqual({ method: 'POST', path: `/api/tracks/${track.id}/cover/uploads`, body: { content_type: 'image/png', size: 70 } });
    expect([...FakeXhr.opened[0]!.body!.keys()]).toEqual(['key', 'Content-Type', 'Policy', 'file']);
    FakeXhr.opened[0]!.answer(204);
    expect(await screen.findByText('Cover art added')).toBeInTheDocument();
    expect(calls.map((call) => call.path)).toContain(`/api/tracks/${track.id}/cover/complete`);
    expect(onChoose).toHaveBeenLastCalledWith(expect.objectContaining({ id: track.id, cover_type: 'image/png' }));
    expect(screen.getByRole('button', { name: 'Replace cover art' })).toBeInTheDocument();
  });

  it('refuses a GIF, an empty image or one over 5 MB before any request, with the rule', async () => {
    const { calls, user } = await chooseTrack();
    await user.upload(coverInput(), new File(['GIF89a'], 'cover.gif', { type: 'image/gif' }));
    expect(await screen.findByText(trackMessages.coverInvalid)).toBeInTheDocument();
    const huge = png('cover.png', 10);
    Object.defineProperty(huge, 'size', { value: 5 * 1024 * 1024 + 1 });
    await user.upload(coverInput(), huge);
    expect(await screen.findByText(trackMessages.coverInvalid)).toBeInTheDocument();
    await user.upload(coverInput(), png('empty.png', 0));
    expect(await screen.findByText(trackMessages.coverInvalid)).toBeInTheDocument();
    expect(calls).toEqual([]);
    expect(FakeXhr.opened).toEqual([]);
  });

  it("shows the server's refusal of an image whose bytes are not one (text named .jpg) and keeps no cover", async () => {
    const { api } = fakeApi({ tracks: [track], coverComplete: () => json({ message: trackMessages.coverInvalid, code: 'cover_not_image' }, 400) });
    renderUploader(api);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'My tracks' }));
    const dialog = await screen.findByRole('dialog', { name: 'My tracks' });
    await user.click(await within(dialog).findByRole('radio', { name: 'Night Drive' }));
    await user.click(within(dialog).getByRole('button', { name: 'Use track' }));
    await user.upload(await screen.findByLabelText<HTMLInputElement>('Cover art file'), new File(['not an image'], 'cover.jpg', { type: 'image/jpeg' }));
    await waitFor(() => expect(FakeXhr.opened).toHaveLength(1));
    FakeXhr.opened[0]!.answer(204);
    expect(await screen.findByText(trackMessages.coverInvalid)).toBeInTheDocument();
    expect(screen.queryByText('Cover art added')).toBeNull();
    expect(screen.getByRole('button', { name: 'Add cover art' })).toBeInTheDocument();
  });
});
