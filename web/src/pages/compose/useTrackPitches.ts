import { useEffect, useMemo, useState } from 'react';
import { pitchBasis } from '../../../../lambdas/core/pitchBasis';
import { passedMessage } from '../../../../lambdas/core/preSendCheck';
import type { PipelineBoard } from '../../../../schema/api/pipeline';
import { ApiError } from '../../api/client';
import { getPipelineBoard } from '../../api/pipeline';
import { useAuth } from '../../auth/AuthContext';
import { pitchKeyOfBasis } from '../../lib/pitchKey';
import { browserTimeZone } from '../../lib/timeZones';
import { pitchedTrackOf, type TrackForm } from './trackForm';

/** The track's board is read once the artist has stopped typing it for this long. */
export const TRACK_PITCHES_DEBOUNCE_MS = 400;

export const ALREADY_RECEIVED_NOTE = 'Already received this track';

/** What the recipients picker says beside a contact this track was pitched to. */
export interface PitchNote {
  kind: 'passed' | 'received';
  text: string;
}

/** Of the track's board: who passed on it (with when) and who received it and did not pass, by contact id. */
interface TrackPitches {
  passed: ReadonlyMap<string, string>;
  received: ReadonlySet<string>;
}

const nobody: TrackPitches = { passed: new Map(), received: new Set() };

function pitchesOf(board: PipelineBoard): TrackPitches {
  const passed = new Map<string, string>();
  const received = new Set<string>();
  // By address id, as the send check matches them: a contact's id is its address's (lambdas/core/addressId.ts).
  for (const entry of board.entries) {
    if (entry.passed_at) passed.set(entry.address_id, entry.passed_at);
    else received.add(entry.address_id);
  }
  return { passed, received };
}

function notesOf({ passed, received }: TrackPitches, trackName: string, timeZone: string): ReadonlyMap<string, PitchNote> {
  const notes = new Map<string, PitchNote>();
  for (const id of received) notes.set(id, { kind: 'received', text: ALREADY_RECEIVED_NOTE });
  for (const [id, at] of passed) notes.set(id, { kind: 'passed', text: passedMessage(trackName, at, timeZone) });
  return notes;
}

/**
 * Issue 28 §2 before a draft exists: who of the contacts passed on the track being composed, or already
 * received it, from the track's board (GET /api/pipeline/tracks/{trackKey}, the key computed here as the
 * server computes it). Read once the artist stops typing the track; a read for a track since changed is
 * dropped. No board (404) is nobody yet; a failed read shows nothing and says nothing, since the send
 * dialog checks again. Null while nothing is known of the track as it now is.
 */
export function useTrackPitchNotes(form: Pick<TrackForm, 'track_name' | 'track_url'>): ReadonlyMap<string, PitchNote> | null {
  const { api, profile } = useAuth();
  const track = pitchedTrackOf(form);
  const basis = track === null ? null : pitchBasis(track);
  const [read, setRead] = useState<{ basis: string; pitches: TrackPitches } | null>(null);

  useEffect(() => {
    if (basis === null) return;
    const controller = new AbortController();
    const { signal } = controller;
    const timer = window.setTimeout(() => {
      pitchKeyOfBasis(basis)
        .then((trackKey) => getPipelineBoard(api, trackKey, { signal }))
        .then(
          (board) => {
            if (!signal.aborted) setRead({ basis, pitches: pitchesOf(board) });
          },
          (error: unknown) => {
            if (!signal.aborted && error instanceof ApiError && error.status === 404) setRead({ basis, pitches: nobody });
          },
        );
    }, TRACK_PITCHES_DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [api, basis]);

  const shown = read !== null && read.basis === basis ? read.pitches : null;
  const timeZone = profile?.time_zone ?? browserTimeZone();
  // The note names the track as typed; only a pass reads the name, so typing it re-renders the picker only then.
  const trackName = shown !== null && shown.passed.size > 0 ? form.track_name : '';
  return useMemo(() => (shown === null ? null : notesOf(shown, trackName, timeZone)), [shown, trackName, timeZone]);
}
