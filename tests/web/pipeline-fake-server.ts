import { vi } from 'vitest';
import { listenAnswers } from '../../schema/api/listenValues';
import {
  pipelineMarkRequestSchema,
  pipelineTodoRequestSchema,
  type ContactTrackList,
  type PipelineEntry,
  type PipelineTodo,
  type PipelineTrack,
} from '../../schema/api/pipeline';
import { gatewayMessages } from '../../schema/api/serverMessages';
import { createApiClient } from '../../web/src/api/client';
import { tourFlagKey } from '../../web/src/tour/tourRules';
import { json } from './contacts-fake-server';
import { makeFakeAuth, makeProfile, renderApp, testUser } from './helpers';

/**
 * An in-memory pipeline API with the contract of schema/api/pipeline.ts, for the web tests of the Tracks
 * page, a track's board, the Dashboard's to-dos and a contact's tracks. The boards are the one source:
 * the track list's counts, the to-dos and a contact's tracks are read from them, as the API reads them
 * from the PITCHED items. A mark sets `stage` (a derived stage never overwrites it); 'derived' takes it back.
 */

const at = (minutes: number) => new Date(Date.UTC(2026, 10, 1, 12, 0) + minutes * 60_000).toISOString();

/** Contact `i` pitched with the track, opened nothing yet: stage Pitched. */
export function pipelineEntry(i: number, overrides: Partial<PipelineEntry> = {}): PipelineEntry {
  const stage = overrides.stage ?? 'pitched';
  return {
    address_id: `address-${i}`,
    contact_id: `contact-${i}`,
    name: `Person ${i}`,
    email: `person${i}@example.com`,
    company: `Label ${i}`,
    label_size: 'Independent',
    stage,
    derived_stage: overrides.derived_stage ?? stage,
    answer: null,
    answer_note: null,
    campaign_id: 'campaign-1',
    pitched_at: at(i),
    opened_at: null,
    listened_at: null,
    answered_at: null,
    replied_at: null,
    passed_at: null,
    mark: null,
    todo_done_at: null,
    ...overrides,
  };
}

export interface FakeTrack {
  track: Omit<PipelineTrack, 'counts'>;
  entries: PipelineEntry[];
}

export function fakeTrack(name: string, trackKey: string, entries: PipelineEntry[]): FakeTrack {
  return { track: { track_key: trackKey, name, track_id: null, track_url: `https://example.com/${trackKey}`, last_pitched_at: at(100) }, entries };
}

/** A track's counts from its entries, as the API counts them: who reached each point; signed and passed are the artist's marks. */
export function countsOf(entries: readonly PipelineEntry[]): PipelineTrack['counts'] {
  const answered = Object.fromEntries(
    listenAnswers.map((answer) => [answer, entries.filter((e) => e.answer === answer).length]),
  ) as PipelineTrack['counts']['answered'];
  return {
    pitched: entries.filter((e) => e.derived_stage !== 'queued').length,
    opened: entries.filter((e) => e.opened_at !== null).length,
    listened: entries.filter((e) => e.listened_at !== null).length,
    answered,
    signed: entries.filter((e) => e.mark?.stage === 'signed').length,
    passed: entries.filter((e) => e.mark?.stage === 'passed').length,
  };
}

type Failure = { status: number; message: string } | null;

export function fakePipelineServer(initial: FakeTrack[] = []) {
  const tracks = new Map(initial.map((t) => [t.track.track_key, t]));
  const fail: { tracks: Failure; board: Failure; mark: Failure; todos: Failure; todo: Failure; contactTracks: Failure } = {
    tracks: null,
    board: null,
    mark: null,
    todos: null,
    todo: null,
    contactTracks: null,
  };
  const hold: {
    tracks?: Promise<void>;
    board?: Promise<void>;
    mark?: Promise<void>;
    todos?: Promise<void>;
    todo?: Promise<void>;
    contactTracks?: Promise<void>;
  } = {};
  let clock = Date.UTC(2026, 10, 20, 9, 0);
  const now = () => new Date((clock += 60_000)).toISOString();

  const todos = (): PipelineTodo[] =>
    [...tracks.values()].flatMap(({ track, entries }) =>
      entries.flatMap((entry) =>
        (entry.answer === 'interested' || entry.answer === 'send_wavs') && entry.todo_done_at === null && entry.answered_at !== null
          ? [
              {
                track_key: track.track_key,
                track_name: track.name,
                address_id: entry.address_id,
                name: entry.name,
                email: entry.email,
                answer: entry.answer,
                answer_note: entry.answer_note,
                answered_at: entry.answered_at,
              },
            ]
          : [],
      ),
    );

  /** Answers a pipeline route, or null for any other path (so other fakes can serve the rest). */
  async function route(method: string, pathname: string, body: unknown): Promise<Response | null> {
    if (method === 'GET' && pathname === '/api/pipeline/tracks') {
      await hold.tracks;
      if (fail.tracks) return json({ message: fail.tracks.message }, fail.tracks.status);
      return json({ tracks: [...tracks.values()].map(({ track, entries }) => ({ ...track, counts: countsOf(entries) })) });
    }
    if (method === 'GET' && pathname === '/api/pipeline/todos') {
      await hold.todos;
      if (fail.todos) return json({ message: fail.todos.message }, fail.todos.status);
      return json({ todos: todos() });
    }
    const board = /^\/api\/pipeline\/tracks\/([^/]+)$/.exec(pathname);
    if (board && method === 'GET') {
      await hold.board;
      if (fail.board) return json({ message: fail.board.message }, fail.board.status);
      const found = tracks.get(decodeURIComponent(board[1]!));
      if (!found) return json({ message: 'Track not found' }, 404);
      return json({ track: { ...found.track, counts: countsOf(found.entries) }, entries: found.entries });
    }
    const entry = /^\/api\/pipeline\/tracks\/([^/]+)\/entries\/([^/]+)\/(mark|todo)$/.exec(pathname);
    if (entry && method === 'PUT') {
      const [, trackKey, addressId, what] = entry;
      await (what === 'mark' ? hold.mark : hold.todo);
      const failure = what === 'mark' ? fail.mark : fail.todo;
      if (failure) return json({ message: failure.message }, failure.status);
      const found = tracks.get(decodeURIComponent(trackKey!));
      const current = found?.entries.find((e) => e.address_id === decodeURIComponent(addressId!));
      if (!found || !current) return json({ message: 'Not found' }, 404);
      let updated: PipelineEntry;
      if (what === 'mark') {
        const parsed = pipelineMarkRequestSchema.safeParse(body);
        if (!parsed.success) return json({ message: parsed.error.issues[0]?.message ?? 'Invalid' }, 400);
        const { stage, note, on } = parsed.data;
        // As the server: the contact's own 'Not for us' stays their pass; else Passed sets it and anything else clears it.
        const notForUs = current.answer === 'not_for_us' ? current.answered_at : null;
        if (stage === 'derived') updated = { ...current, stage: current.derived_stage, mark: null, passed_at: notForUs };
        else {
          const mark = { stage, note: note ?? null, on: on ?? now().slice(0, 10), set_at: now() };
          updated = { ...current, stage, mark, passed_at: notForUs ?? (stage === 'passed' ? mark.set_at : null) };
        }
      } else {
        const parsed = pipelineTodoRequestSchema.safeParse(body);
        if (!parsed.success) return json({ message: parsed.error.issues[0]?.message ?? 'Invalid' }, 400);
        updated = { ...current, todo_done_at: parsed.data.done ? now() : null };
      }
      found.entries = found.entries.map((e) => (e === current ? updated : e));
      return json(updated);
    }
    const ofContact = /^\/api\/contacts\/([^/]+)\/tracks$/.exec(pathname);
    if (ofContact && method === 'GET') {
      await hold.contactTracks;
      if (fail.contactTracks) return json({ message: fail.contactTracks.message }, fail.contactTracks.status);
      const contactId = decodeURIComponent(ofContact[1]!);
      const list: ContactTrackList['tracks'] = [...tracks.values()].flatMap(({ track, entries }) =>
        entries
          .filter((e) => e.contact_id === contactId)
          .map((e) => ({
            track_key: track.track_key,
            track_name: track.name,
            stage: e.stage,
            pitched_at: e.pitched_at,
            // When they passed: the artist's Passed mark, or their own 'Not for us'.
            passed_at: e.mark?.stage === 'passed' ? e.mark.set_at : e.answer === 'not_for_us' ? e.answered_at : null,
          })),
      );
      return json({ tracks: list });
    }
    return null;
  }

  const fetchImpl = vi.fn<typeof fetch>(async (input, init) => {
    const method = init?.method ?? 'GET';
    const body: unknown = init?.body ? JSON.parse(init.body as string) : undefined;
    const { pathname } = new URL(input as string, 'http://localhost');
    return (await route(method, pathname, body)) ?? json({ message: gatewayMessages.notFound }, 404);
  });

  const calls = (method: string, path: string) =>
    fetchImpl.mock.calls.filter(([url, init]) => (init?.method ?? 'GET') === method && new URL(url as string, 'http://localhost').pathname === path);
  const bodies = (method: string, path: string) => calls(method, path).map(([, init]) => JSON.parse(init?.body as string) as unknown);
  const entryOf = (trackKey: string, addressId: string) => tracks.get(trackKey)?.entries.find((e) => e.address_id === addressId);

  return { tracks, fail, hold, route, fetchImpl, calls, bodies, entryOf, todos };
}

export type PipelineServer = ReturnType<typeof fakePipelineServer>;

/** The app at `path` for the test user, the tour kept closed by its stored flag, its API the fake's. */
export function renderPipeline(server: PipelineServer, path: string) {
  window.localStorage.setItem(tourFlagKey(testUser.userId), 'true');
  const api = createApiClient(() => Promise.resolve('user-id-token'), server.fetchImpl);
  return renderApp(path, { auth: makeFakeAuth({ user: testUser, profile: makeProfile(), api }) });
}

/** Harbour Lights pitched to five contacts across the stages: the board the tests read. */
export function harbourLights(): FakeTrack {
  return fakeTrack('Harbour Lights', 'trk-harbour', [
    pipelineEntry(1, { name: 'Ada Queue', stage: 'queued', pitched_at: null, label_size: 'Boutique' }),
    pipelineEntry(2, { name: 'Ben Pitch', stage: 'pitched' }),
    pipelineEntry(3, { name: 'Cleo Listen', stage: 'listened', opened_at: at(10), listened_at: at(20), label_size: 'Major subsidiary' }),
    pipelineEntry(4, {
      name: 'Dan Wavs',
      stage: 'answered',
      opened_at: at(10),
      listened_at: at(20),
      answered_at: at(30),
      answer: 'send_wavs',
      answer_note: 'Lovely, send the stems too',
    }),
    pipelineEntry(5, {
      name: 'Eve Signed',
      stage: 'signed',
      derived_stage: 'answered',
      opened_at: at(10),
      listened_at: at(20),
      answered_at: at(30),
      answer: 'interested',
      label_size: null,
      mark: { stage: 'signed', note: 'Release in March', on: '2026-11-03', set_at: at(40) },
    }),
  ]);
}
