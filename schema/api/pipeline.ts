/**
 * The pitch pipeline of a track (issue 28 §1, DESIGN §16): where every contact pitched with a track
 * stands. The stage is derived from what happened (the PITCHED item of (track, address), written in the
 * same transactions as the send, the open, the listen and the answer) unless the artist set one (Signed,
 * Passed), which a derived stage never overwrites. The routes' bodies and answers; the core's stageOf
 * derives `stage` from an item.
 */
import * as z from 'zod';
import { listenAnswers } from './listenValues';

/** The stages, in the board's column order. */
export const pipelineStages = ['queued', 'pitched', 'opened', 'listened', 'answered', 'replied', 'signed', 'passed'] as const;
export type PipelineStage = (typeof pipelineStages)[number];
export const pipelineStageLabels: Record<PipelineStage, string> = {
  queued: 'Queued',
  pitched: 'Pitched',
  opened: 'Opened',
  listened: 'Listened',
  answered: 'Answered',
  replied: 'Replied',
  signed: 'Signed',
  passed: 'Passed',
};

/** The stages the artist sets by hand ('derived' takes their mark back). */
export const pipelineMarks = ['signed', 'passed'] as const;
export type PipelineMark = (typeof pipelineMarks)[number];

export const PIPELINE_NOTE_MAX = 500;

/** One contact on a track's board. */
export interface PipelineEntry {
  /** The address's id (the PITCHED item's; stable across the contact's edits). */
  address_id: string;
  contact_id: string | null;
  name: string;
  email: string;
  company: string | null;
  label_size: string | null;
  stage: PipelineStage;
  /** The stage the events alone give (shown beside an artist's mark). */
  derived_stage: PipelineStage;
  answer: (typeof listenAnswers)[number] | null;
  answer_note: string | null;
  /** The campaign that pitched it (its page links from the board). */
  campaign_id: string;
  pitched_at: string | null;
  opened_at: string | null;
  listened_at: string | null;
  answered_at: string | null;
  replied_at: string | null;
  /**
   * When the contact passed on the track ('Not for us', or the artist's Passed): a later pitch of it is
   * refused unless the artist insists (what the send check and Compose's recipients picker say).
   */
  passed_at: string | null;
  /** The artist's mark: Signed or Passed, with its note and the date they gave. */
  mark: { stage: PipelineMark; note: string | null; on: string; set_at: string } | null;
  /** An Interested / Send me the WAVs answer the artist marked done ("WAVs sent"). */
  todo_done_at: string | null;
}

/** A track with its counts (the Tracks page). */
export interface PipelineTrack {
  /** The pitch key (the track link, or name when there is none, hashed): the track page's path. */
  track_key: string;
  name: string;
  /** The uploaded track's id, when the campaigns used one. */
  track_id: string | null;
  track_url: string | null;
  last_pitched_at: string | null;
  counts: {
    pitched: number;
    opened: number;
    listened: number;
    answered: Record<(typeof listenAnswers)[number], number>;
    signed: number;
    passed: number;
  };
}

/** GET /api/pipeline/tracks. */
export interface PipelineTrackList {
  tracks: PipelineTrack[];
}

/** GET /api/pipeline/tracks/{trackKey}. */
export interface PipelineBoard {
  track: PipelineTrack;
  entries: PipelineEntry[];
}

/** PUT /api/pipeline/tracks/{trackKey}/entries/{addressId}/mark: set Signed or Passed, or take the mark back ('derived'). */
export const pipelineMarkRequestSchema = z
  .object({
    stage: z.enum([...pipelineMarks, 'derived']),
    note: z.string().trim().max(PIPELINE_NOTE_MAX, `A note can be up to ${PIPELINE_NOTE_MAX} characters.`).nullish(),
    /** The date the artist gives (YYYY-MM-DD), today by default. */
    on: z.iso.date('Enter a date as YYYY-MM-DD.').nullish(),
  })
  .strict();
export type PipelineMarkRequest = z.infer<typeof pipelineMarkRequestSchema>;

/** PUT /api/pipeline/tracks/{trackKey}/entries/{addressId}/todo: the to-do done (or open again). */
export const pipelineTodoRequestSchema = z.object({ done: z.boolean() }).strict();
export type PipelineTodoRequest = z.infer<typeof pipelineTodoRequestSchema>;

/** A Dashboard to-do: an Interested or Send me the WAVs answer not yet marked done. */
export interface PipelineTodo {
  track_key: string;
  track_name: string;
  address_id: string;
  name: string;
  email: string;
  answer: 'interested' | 'send_wavs';
  answer_note: string | null;
  answered_at: string;
}

/** GET /api/pipeline/todos. */
export interface PipelineTodoList {
  todos: PipelineTodo[];
}

/** GET /api/contacts/{id}/tracks: every track pitched to the contact, with its stage. */
export interface ContactTrackList {
  tracks: { track_key: string; track_name: string; stage: PipelineStage; pitched_at: string | null; passed_at: string | null }[];
}
