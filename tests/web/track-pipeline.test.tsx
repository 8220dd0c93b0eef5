/**
 * Issue 28 §1: a track's page is a board (a column per stage, a card per contact) and a table of the same
 * data; the artist moves a contact to Signed or Passed, or back to the derived stage, with a note and a
 * date, by mouse or keyboard; an artist's mark shows beside the derived stage; filters by stage, answer
 * and label size; 'Export CSV' of what is shown.
 */
import createWrapper from '@cloudscape-design/components/test-utils/dom';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { pipelineStageLabels, type PipelineStage } from '../../schema/api/pipeline';
import { fileSaver, formatDateStamp } from '../../web/src/lib/csv';
import { TRACK_NOT_FOUND } from '../../web/src/pages/tracks/TrackPipelinePage';
import { boardCsvFilename, formatDay } from '../../web/src/pages/tracks/pipelineView';
import { gate } from './contacts-fake-server';
import { currentPath, preloadRoutes, toast } from './helpers';
import { fakePipelineServer, harbourLights, renderPipeline, type PipelineServer } from './pipeline-fake-server';

beforeAll(async () => {
  await preloadRoutes();
  await import('../../web/src/pages/tracks/TrackPipelinePage');
  await import('../../web/src/pages/tracks/TracksPage');
}, 60_000);

afterEach(() => {
  vi.restoreAllMocks();
});

const BOARD = '/dashboard/tracks/trk-harbour';

async function openBoard(server: PipelineServer = fakePipelineServer([harbourLights()])) {
  renderPipeline(server, BOARD);
  await screen.findByRole('heading', { name: 'Harbour Lights', level: 1 });
  return server;
}

/** A stage's column on the board. */
const column = (stage: PipelineStage) => screen.getByRole('region', { name: pipelineStageLabels[stage] });

/** The contacts on a column's cards, by their Move buttons' names. */
const namesIn = (stage: PipelineStage) =>
  within(column(stage))
    .queryAllByRole('button', { name: /^Move / })
    .map((button) => button.getAttribute('aria-label')!.replace(/^Move /, ''));

const board = () => Object.fromEntries((Object.keys(pipelineStageLabels) as PipelineStage[]).map((stage) => [stage, namesIn(stage)]));

/** Presses Tab until `reached` holds (at most 20 times). */
async function tabUntil(user: ReturnType<typeof userEvent.setup>, reached: () => boolean) {
  for (let presses = 0; !reached(); presses++) {
    if (presses === 20) throw new Error(`Tab never reached it (at ${document.activeElement?.outerHTML.slice(0, 120)})`);
    await user.tab();
  }
}

/**
 * Key events with the key codes browsers give them: user-event sets none, and Cloudscape's date input keeps
 * every key without a command's key code (a browser's Tab is 9) from leaving it. Undone by the returned function.
 */
function browserKeyCodes(): () => void {
  const codes: Record<string, number> = { Tab: 9, Enter: 13, ' ': 32, Shift: 16, Escape: 27 };
  const original = Object.getOwnPropertyDescriptor(KeyboardEvent.prototype, 'keyCode')!;
  Object.defineProperty(KeyboardEvent.prototype, 'keyCode', {
    configurable: true,
    get(this: KeyboardEvent) {
      return codes[this.key] ?? (original.get!.call(this) as number);
    },
  });
  return () => Object.defineProperty(KeyboardEvent.prototype, 'keyCode', original);
}

/** The card of the contact named `name`. */
const card = (name: string) => screen.getByRole('button', { name: `Move ${name}` }).closest('li')!;

describe("a track's board", () => {
  it('shows a column per stage in order, each contact in its stage, and an artist’s mark beside the stage the events give', async () => {
    await openBoard();
    const headings = within(screen.getByTestId('pipeline-board'))
      .getAllByRole('heading', { level: 2 })
      .map((heading) => heading.textContent);
    expect(headings).toEqual(['Queued (1)', 'Pitched (1)', 'Opened (0)', 'Listened (1)', 'Answered (1)', 'Replied (0)', 'Signed (1)', 'Passed (0)']);
    expect(board()).toEqual({
      queued: ['Ada Queue'],
      pitched: ['Ben Pitch'],
      opened: [],
      listened: ['Cleo Listen'],
      answered: ['Dan Wavs'],
      replied: [],
      signed: ['Eve Signed'],
      passed: [],
    });
    expect(within(column('opened')).getByText('No contacts')).toBeInTheDocument();
    const eve = within(card('Eve Signed'));
    expect(eve.getByText('Signed by you on Nov 3, 2026', { exact: false })).toHaveTextContent('Signed by you on Nov 3, 2026 · From events: Answered');
    expect(eve.getByText('Release in March')).toBeInTheDocument();
    expect(eve.getByText('Answer: Interested')).toBeInTheDocument();
    const dan = within(card('Dan Wavs'));
    expect(dan.getByText('Answer: Send me the WAVs')).toBeInTheDocument();
    expect(dan.getByText('“Lovely, send the stems too”')).toBeInTheDocument();
    expect(dan.queryByText(/by you/)).toBeNull();
    expect(screen.getByText('Pitched to 5 contacts.')).toBeInTheDocument();
    expect(document.title).toBe('Harbour Lights · Trackpitch');
  });

  it('shows the same contacts as a table, with the mark beside the derived stage and the campaign that pitched each', async () => {
    await openBoard();
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Table' }));
    expect(screen.queryByTestId('pipeline-board')).toBeNull();
    const table = createWrapper().findTable()!;
    expect(table.findColumnHeaders().map((h) => h.getElement().textContent)).toEqual([
      'Contact',
      'Company',
      'Label size',
      'Stage',
      'Answer',
      'Pitched',
      'Opened',
      'Listened',
      'Answered',
      'Campaign',
      'Actions',
    ]);
    const rows = table.findRows().map((row) => row.getElement());
    expect(
      rows.map((row) =>
        within(row)
          .getByRole('button', { name: /^Move / })
          .getAttribute('aria-label'),
      ),
    ).toEqual(['Move Ada Queue', 'Move Ben Pitch', 'Move Cleo Listen', 'Move Dan Wavs', 'Move Eve Signed']);
    const eve = within(rows[4]!);
    expect(eve.getByText('Signed', { selector: 'span' })).toBeInTheDocument();
    expect(eve.getByText('Signed by you on Nov 3, 2026', { exact: false })).toHaveTextContent('From events: Answered');
    expect(eve.getByText('Not given')).toBeInTheDocument();
    await user.click(eve.getByRole('link', { name: 'View the campaign that pitched Eve Signed' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/campaigns/campaign-1'));
  });

  it('moves a contact to Passed by keyboard alone: the cards’ Move buttons follow each other, the dialog is worked with Tab and Enter', async () => {
    const server = await openBoard();
    const user = userEvent.setup();
    onTestFinished(browserKeyCodes());
    screen.getByRole('button', { name: 'Move Ada Queue' }).focus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Move Ben Pitch' })).toHaveFocus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Move Ben Pitch' });
    const passed = within(dialog).getByRole('radio', { name: 'Passed' });
    passed.focus();
    await user.keyboard(' ');
    expect(passed).toBeChecked();
    // The date (today unless changed), then the calendar's button, then the note.
    await tabUntil(user, () => document.activeElement === within(dialog).getByRole('textbox', { name: /Note/ }));
    await user.keyboard('Not their sound this year');
    await tabUntil(user, () => document.activeElement === within(dialog).getByRole('button', { name: 'Move' }));
    await user.keyboard('{Enter}');

    await toast('Ben Pitch: Passed');
    expect(screen.queryByRole('dialog', { name: 'Move Ben Pitch' })).toBeNull();
    expect(server.bodies('PUT', '/api/pipeline/tracks/trk-harbour/entries/address-2/mark')).toEqual([
      { stage: 'passed', note: 'Not their sound this year', on: formatDateStamp(new Date()) },
    ]);
    expect(namesIn('passed')).toEqual(['Ben Pitch']);
    expect(namesIn('pitched')).toEqual([]);
    // The focus follows the card to its new column.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Move Ben Pitch' })).toHaveFocus());
    expect(within(card('Ben Pitch')).getByText(`Passed by you on`, { exact: false })).toHaveTextContent('From events: Pitched');
  });

  it('moves a contact to Signed on the date given, and takes a mark back with “Use derived stage”', async () => {
    const server = await openBoard();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Move Dan Wavs' }));
    let dialog = await screen.findByRole('dialog', { name: 'Move Dan Wavs' });
    // No mark yet: nothing to take back.
    expect(within(dialog).getByRole('radio', { name: /Use derived stage/ })).toBeDisabled();
    expect(within(dialog).getByRole('radio', { name: 'Signed' })).toBeChecked();
    createWrapper(dialog).findDatePicker()!.setInputValue('2026-11-05');
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    await toast('Dan Wavs: Signed');
    expect(server.bodies('PUT', '/api/pipeline/tracks/trk-harbour/entries/address-4/mark')).toEqual([{ stage: 'signed', note: null, on: '2026-11-05' }]);
    expect(namesIn('signed')).toEqual(['Dan Wavs', 'Eve Signed']);
    expect(within(card('Dan Wavs')).getByText('Signed by you on Nov 5, 2026', { exact: false })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Move Eve Signed' }));
    dialog = await screen.findByRole('dialog', { name: 'Move Eve Signed' });
    expect(dialog).toHaveTextContent('Now: Signed (Signed by you on Nov 3, 2026). From events: Answered.');
    const derived = within(dialog).getByRole('radio', { name: /Use derived stage/ });
    expect(derived).toBeChecked();
    expect(within(dialog).queryByRole('textbox')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    await toast('Eve Signed: Answered');
    expect(server.bodies('PUT', '/api/pipeline/tracks/trk-harbour/entries/address-5/mark')).toEqual([{ stage: 'derived' }]);
    expect(namesIn('answered')).toEqual(['Eve Signed']);
    expect(within(card('Eve Signed')).queryByText(/by you/)).toBeNull();
  });

  it('checks the form with the contract’s messages before sending, and keeps the dialog open with the server’s refusal', async () => {
    const server = await openBoard();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Move Cleo Listen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move Cleo Listen' });
    const note = within(dialog).getByRole('textbox', { name: /Note/ });
    await user.click(note);
    await user.paste('x'.repeat(501));
    expect(await within(dialog).findByText('A note can be up to 500 characters.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect(server.calls('PUT', '/api/pipeline/tracks/trk-harbour/entries/address-3/mark')).toHaveLength(0);

    await user.clear(note);
    await user.type(note, 'Signed the EP');
    createWrapper(dialog).findDatePicker()!.setInputValue('2026-11');
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect(await within(dialog).findByText('Enter a date as YYYY-MM-DD.')).toBeInTheDocument();
    expect(server.calls('PUT', '/api/pipeline/tracks/trk-harbour/entries/address-3/mark')).toHaveLength(0);

    createWrapper(dialog).findDatePicker()!.setInputValue('2026-11-04');
    server.fail.mark = { status: 409, message: 'This contact changed meanwhile. Reload the board.' };
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect(await within(dialog).findByText('This contact changed meanwhile. Reload the board.')).toBeInTheDocument();
    expect(within(dialog).getByText('Could not move this contact')).toBeInTheDocument();
    expect(namesIn('listened')).toEqual(['Cleo Listen']);
    expect(server.bodies('PUT', '/api/pipeline/tracks/trk-harbour/entries/address-3/mark')).toEqual([
      { stage: 'signed', note: 'Signed the EP', on: '2026-11-04' },
    ]);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Move Cleo Listen' })).toBeNull());
    expect(namesIn('listened')).toEqual(['Cleo Listen']);
  });

  it('filters by stage, answer and label size, on the board and in the table, and clears them', async () => {
    await openBoard();
    const user = userEvent.setup();
    const filters = within(screen.getByRole('group', { name: 'Stage' }));
    expect(filters.getByRole('checkbox', { name: 'Answered (1)' })).toBeInTheDocument();
    await user.click(filters.getByRole('checkbox', { name: 'Answered (1)' }));
    await user.click(filters.getByRole('checkbox', { name: 'Signed (1)' }));
    expect(screen.getByText('Showing 2 of 5 contacts')).toBeInTheDocument();
    expect(board()).toMatchObject({ answered: ['Dan Wavs'], signed: ['Eve Signed'], queued: [], pitched: [] });

    await user.click(within(screen.getByRole('group', { name: 'Answer' })).getByRole('checkbox', { name: 'Send me the WAVs (1)' }));
    expect(screen.getByText('Showing 1 of 5 contacts')).toBeInTheDocument();
    expect(board()).toMatchObject({ answered: ['Dan Wavs'], signed: [] });

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(screen.getByText('5 contacts')).toBeInTheDocument();
    const sizes = within(screen.getByRole('group', { name: 'Label size' }));
    expect(sizes.getAllByRole('checkbox')).toHaveLength(4);
    await user.click(sizes.getByRole('checkbox', { name: 'Not given (1)' }));
    await user.click(sizes.getByRole('checkbox', { name: 'Major subsidiary (1)' }));
    await user.click(screen.getByRole('tab', { name: 'Table' }));
    const rows = createWrapper().findTable()!.findRows();
    expect(
      rows.map((row) =>
        within(row.getElement())
          .getByRole('button', { name: /^Move / })
          .getAttribute('aria-label'),
      ),
    ).toEqual(['Move Cleo Listen', 'Move Eve Signed']);

    await user.click(within(screen.getByRole('group', { name: 'Answer' })).getByRole('checkbox', { name: 'Not for us (0)' }));
    expect(await screen.findByText('No contact matches these filters.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });

  it('exports what is shown as CSV, named after the track and the day', async () => {
    const save = vi.spyOn(fileSaver, 'save').mockImplementation(() => {});
    await openBoard();
    const user = userEvent.setup();
    await user.click(within(screen.getByRole('group', { name: 'Stage' })).getByRole('checkbox', { name: 'Signed (1)' }));
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(save).toHaveBeenCalledTimes(1);
    const [filename, content] = save.mock.calls[0]!;
    expect(filename).toBe(`harbour-lights-pipeline-${formatDateStamp(new Date())}.csv`);
    const lines = content.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(
      'Name,Email,Company,Label Size,Stage,Stage From Events,Answer,Answer Note,Pitched,Opened,Listened,Answered,Replied,Your Mark,Mark Date,Mark Note,To-do Done',
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/^Eve Signed,person5@example\.com,Label 5,,Signed,Answered,Interested,,.*,Signed,2026-11-03,Release in March,$/);
  });

  it('says when the track is not the artist’s, and offers Retry when the board cannot be read', async () => {
    const server = fakePipelineServer([harbourLights()]);
    const user = userEvent.setup();
    renderPipeline(server, '/dashboard/tracks/trk-someone-elses');
    expect(await screen.findByRole('heading', { name: TRACK_NOT_FOUND, level: 1 })).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to Tracks' }));
    await waitFor(() => expect(currentPath()).toBe('/dashboard/tracks'));

    const held = gate();
    server.hold.board = held.promise;
    server.fail.board = { status: 500, message: 'The board is resting' };
    await user.click(await screen.findByRole('link', { name: 'Harbour Lights' }));
    expect(await screen.findByText('Loading the track’s pipeline')).toBeInTheDocument();
    held.open();
    expect(await screen.findByText('The board is resting')).toBeInTheDocument();
    server.fail.board = null;
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('heading', { name: 'Harbour Lights', level: 1 })).toBeInTheDocument();
  });
});

describe('the board’s words', () => {
  it('names the CSV after the track, plain letters and dashes only, and a day the artist gave as that day in any zone', () => {
    const day = new Date(2026, 10, 28, 23, 30);
    expect(boardCsvFilename({ name: 'Señorita / Dub (VIP)!' }, day)).toBe('senorita-dub-vip-pipeline-2026-11-28.csv');
    expect(boardCsvFilename({ name: '¿¡!?' }, day)).toBe('track-pipeline-2026-11-28.csv');
    expect(formatDay('2026-11-03')).toBe(new Date(2026, 10, 3).toLocaleDateString(undefined, { dateStyle: 'medium' }));
  });
});
