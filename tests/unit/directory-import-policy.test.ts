/**
 * Demo policies in the admin directory import (issue 28 §2): CSV columns and JSON fields (flat, or a
 * `demo_policy` object as the API returns it) become an entry's structured policy; a bad value rejects
 * its row with a reason naming it, and the other rows load.
 */
import { describe, expect, it } from 'vitest';
import { buildDemoPolicy } from '../fakes/builders';
import { parseDirectoryImport, type DirectoryImportPlan } from '../../lambdas/core/directoryImport';
import { demoPolicyImportMessages as messages } from '../../lambdas/core/demoPolicyImport';
import { contactFromDirectoryEntry } from '../../lambdas/core/contacts';
import { applyDirectoryDefaults, directoryEntrySchema } from '../../schema/api/directory';
import { contactSchema } from '../../schema/api/contacts';
import { demoPolicySchema, demoPolicySummary } from '../../schema/api/demoPolicy';

function plan(format: 'csv' | 'json', content: string): DirectoryImportPlan {
  const result = parseDirectoryImport(format, content);
  if (!result.ok) throw new Error(`expected a plan, got: ${result.error}`);
  return result.plan;
}

const policy = buildDemoPolicy;

const HEADER = 'Name,Email,Submission method,Submission URL,Accepts,Unreleased only,Accepted genres,Response time,Max words';

describe('demo policy columns of a CSV file', () => {
  it('reads each column in its common spellings; a row without policy values has none', () => {
    const csv = [
      HEADER,
      'Glass Hour,glass@labels.example,Email,,"private links only; no attachments",yes,"Techno, Deep House",14 days,150',
      'Form Label,form@labels.example,Web form,form.example/demos,,,,2 weeks,',
      'Radar Label,radar@labels.example,platform,https://submit.example/radar,download,no,,,',
      'Plain Label,plain@labels.example,,,,no,,,',
    ].join('\n');
    const { entries, rejected } = plan('csv', csv);
    expect(rejected).toEqual([]);
    expect(entries.map((entry) => entry.demo_policy)).toEqual([
      policy({
        private_streaming_only: true,
        attachments_refused: true,
        unreleased_only: true,
        genres: ['techno', 'deep-house'],
        response_days: 14,
        max_email_words: 150,
      }),
      policy({ submit_by: 'web_form', submit_url: 'https://form.example/demos', response_days: 14 }),
      policy({ submit_by: 'platform_only', submit_url: 'https://submit.example/radar', download_wanted: true }),
      null,
    ]);
    for (const entry of entries) expect(directoryEntrySchema.parse({ ...entry, id: 'x' })).toEqual({ ...entry, id: 'x' });
  });

  it('rejects a row for each bad value, naming it, and loads the others', () => {
    const csv = [
      HEADER,
      'Ok,ok@labels.example,email,,,,,,',
      'A,a@labels.example,fax,,,,,,',
      'B,b@labels.example,web form,,,,,,',
      'C,c@labels.example,email,javascript:alert(1),,,,,',
      'D,d@labels.example,email,,"private links only, stems",maybe,,,',
      'E,e@labels.example,email,,,,"Techno, Polka",,',
      'F,f@labels.example,email,,,,,0,10',
      'G,g@labels.example,,,unreleased,,,,',
      'H,h@labels.example,email,,,,,soon,99999',
    ].join('\n');
    const { entries, rejected } = plan('csv', csv);
    expect(entries.map((entry) => entry.email)).toEqual(['ok@labels.example']);
    expect(rejected).toEqual([
      { row: 3, email: 'a@labels.example', reasons: [messages.unknownMethod('fax')] },
      { row: 4, email: 'b@labels.example', reasons: [messages.missingUrl] },
      { row: 5, email: 'c@labels.example', reasons: [messages.invalidUrl('javascript:alert(1)')] },
      { row: 6, email: 'd@labels.example', reasons: [messages.unknownRule('stems'), messages.unknownYesNo('Unreleased only', 'maybe')] },
      { row: 7, email: 'e@labels.example', reasons: [messages.unknownGenre('Polka')] },
      { row: 8, email: 'f@labels.example', reasons: [messages.responseDays('0'), messages.maxEmailWords('10')] },
      { row: 9, email: 'g@labels.example', reasons: [messages.noMethod] },
      { row: 10, email: 'h@labels.example', reasons: [messages.responseDays('soon'), messages.maxEmailWords('99999')] },
    ]);
    expect(messages.unknownMethod('fax')).toBe('Unknown submission method: fax (use email, web form or platform)');
  });
});

describe('demo policy fields of a JSON file', () => {
  it('reads flat fields and a demo_policy object (the stored names, booleans and lists)', () => {
    const stored = policy({
      submit_by: 'web_form',
      submit_url: 'https://velvet.test/demos',
      private_streaming_only: true,
      genres: ['house'],
      response_days: 21,
    });
    const { entries, rejected } = plan(
      'json',
      JSON.stringify([
        { email: 'flat@labels.example', submit_by: 'email', accepts: ['download link', 'unreleased only'], response_days: 7, max_email_words: 120 },
        { email: 'nested@labels.example', demo_policy: stored },
        { email: 'none@labels.example', demo_policy: null },
      ]),
    );
    expect(rejected).toEqual([]);
    expect(entries.map((entry) => entry.demo_policy)).toEqual([
      policy({ download_wanted: true, unreleased_only: true, response_days: 7, max_email_words: 120 }),
      stored,
      null,
    ]);
  });

  it('rejects a demo_policy that is not an object, or a value that is not text', () => {
    const { entries, rejected } = plan(
      'json',
      JSON.stringify([
        { email: 'a@labels.example', demo_policy: 'email' },
        { email: 'b@labels.example', submit_by: { by: 'email' } },
        { email: 'c@labels.example', demo_policy: { submit_by: 'email', private_streaming_only: 'sometimes' } },
        { email: 'ok@labels.example' },
      ]),
    );
    expect(entries.map((entry) => entry.email)).toEqual(['ok@labels.example']);
    expect(rejected).toEqual([
      { row: 1, email: 'a@labels.example', reasons: [messages.notAnObject] },
      { row: 2, email: 'b@labels.example', reasons: ['Submission method must be text'] },
      { row: 3, email: 'c@labels.example', reasons: [messages.unknownYesNo('Private streaming only', 'sometimes')] },
    ]);
  });
});

describe('the policy schema, its plain words and the contact it goes to', () => {
  it('needs the link of a web form or platform, and bounds its numbers', () => {
    expect(demoPolicySchema.safeParse(policy({ submit_by: 'web_form' })).success).toBe(false);
    expect(demoPolicySchema.safeParse(policy({ submit_by: 'web_form', submit_url: 'https://x.test/demos' })).success).toBe(true);
    expect(demoPolicySchema.safeParse(policy({ response_days: 0 })).success).toBe(false);
    expect(demoPolicySchema.safeParse(policy({ max_email_words: 2.5 })).success).toBe(false);
  });

  it('says the policy in plain words', () => {
    expect(demoPolicySummary(policy({ private_streaming_only: true, unreleased_only: true, response_days: 14 }))).toBe(
      'Demos by email · Private streaming links only · Unreleased music only · Replies in about 14 days',
    );
    expect(
      demoPolicySummary(
        policy({
          submit_by: 'web_form',
          submit_url: 'https://x.test',
          download_wanted: true,
          attachments_refused: true,
          genres: ['techno', 'drum-bass'],
          max_email_words: 120,
          response_days: 1,
        }),
      ),
    ).toBe(
      'Demos through their web form only · Download link wanted · No attachments · Takes Techno, Drum & Bass · Emails under 120 words · Replies in about 1 day',
    );
  });

  it('is copied onto the contact an entry becomes; an entry without one gives a contact without one', () => {
    const withPolicy = applyDirectoryDefaults({ id: 'lf-1', email: 'a@labels.example', demo_policy: policy({ unreleased_only: true }) });
    const contact = contactFromDirectoryEntry('user-1', withPolicy, '2026-11-28T00:00:00.000Z');
    expect(contact.demo_policy).toEqual(policy({ unreleased_only: true }));
    expect(contactSchema.parse(contact)).toEqual(contact);
    const without = contactFromDirectoryEntry('user-1', applyDirectoryDefaults({ id: 'lf-2', email: 'b@labels.example' }), '2026-11-28T00:00:00.000Z');
    expect('demo_policy' in without).toBe(false);
  });
});
