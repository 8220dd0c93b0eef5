/**
 * lambdas/core/account.ts over fakes: the deletion's confirmation, its steps and their order (the
 * subscription cancelled through the billing port, the audio of every track, the table, the sign-in last,
 * then a sweep), a retry after a crash, and the export's files; the export route over fakes: the zip
 * goes to the ExportStore as it is built, under the token's user, and the answer is its signed URL.
 */
import { describe, expect, it } from 'vitest';
import {
  accountExportFiles,
  campaignsJson,
  contactsCsv,
  deleteAccount,
  EXPORT_URL_SECONDS,
  EXPORTS_PREFIX,
  type AccountDeletionDeps,
} from '../../lambdas/core/account';
import { DomainError } from '../../lambdas/core/errors';
import { makeHandler } from '../../lambdas/http/account';
import type { AccountDataStore, AudioUrls, ExportedCampaign, ExportStore } from '../../lambdas/ports';
import { buildApiEvent, makeLambdaContext } from '../../lib/local/event';
import { accountExportSchema } from '../../schema/api/account';
import { readZip } from '../support/zip';
import { buildSubscription, FakeBillingProvider } from '../fakes/billing';
import { buildCampaign, buildContact, buildRecipient } from '../fakes/builders';
import { guessMapping, planContactImport, readContactsCsv } from '../../schema/csv/contactImport';

const USER = { userId: 'user-1', email: 'Nova@Example.com' };

function fakes(options: { customerId?: string; trackIds?: string[]; failUsersOnce?: boolean } = {}) {
  const steps: string[] = [];
  const provider = new FakeBillingProvider();
  let failUsers = options.failUsersOnce === true;
  const data: AccountDataStore = {
    contacts: () => Promise.resolve([]),
    campaigns: async function* () {},
    trackIds: (userId) => {
      steps.push(`tracks ${userId}`);
      return Promise.resolve(options.trackIds ?? []);
    },
    erase: (userId) => {
      steps.push(`erase ${userId}`);
      return Promise.resolve({ linkedItems: 1, userItems: 2 });
    },
  };
  const deps: AccountDeletionDeps = {
    data,
    billing: { customerOf: (userId) => Promise.resolve(userId === USER.userId ? options.customerId : undefined) },
    provider,
    audio: {
      delete: (key) => {
        steps.push(`audio ${key}`);
        return Promise.resolve();
      },
    },
    users: {
      deleteUser: (userId) => {
        steps.push(`user ${userId}`);
        if (failUsers) {
          failUsers = false;
          return Promise.reject(new Error('cognito down'));
        }
        return Promise.resolve('deleted');
      },
    },
  };
  return { deps, steps, provider };
}

describe('deleteAccount', () => {
  it("refuses a confirmation that is not the account's own email, and deletes nothing", async () => {
    const { deps, steps, provider } = fakes({ customerId: 'cus_1' });
    for (const typed of ['', 'someone@example.com', 'nova@example.co']) {
      const refused = await deleteAccount(deps, USER, typed).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(DomainError);
      expect(refused).toMatchObject({ kind: 'invalid', code: 'confirm_email_mismatch' });
    }
    // A token without an email can never confirm.
    await expect(deleteAccount(deps, { ...USER, email: '' }, '')).rejects.toBeInstanceOf(DomainError);
    expect(steps).toEqual([]);
    expect(provider.cancellations).toEqual([]);
  });

  it('cancels every live subscription, deletes every track’s audio and the data, then the sign-in, then sweeps', async () => {
    const { deps, steps, provider } = fakes({ customerId: 'cus_1', trackIds: ['T1', 'T2'] });
    provider.setSubscriptions('cus_1', [
      { ...buildSubscription({ id: 'sub_a', status: 'active' }), created: 2 },
      { ...buildSubscription({ id: 'sub_b', status: 'past_due' }), created: 1 },
      { ...buildSubscription({ id: 'sub_old', status: 'canceled' }), created: 0 },
    ]);
    // Case and spaces aside, the typed address is the account's.
    const deleted = await deleteAccount(deps, USER, '  nova@example.COM ');
    expect(provider.cancellations.map((c) => [c.customerId, c.subscriptionId, c.outcome])).toEqual([
      ['cus_1', 'sub_a', 'canceled'],
      ['cus_1', 'sub_b', 'canceled'],
    ]);
    expect(steps.filter((step) => step.startsWith('audio')).sort()).toEqual(
      [
        'tracks/user-1/T1',
        'tracks/user-1/T1-cover',
        'uploads/user-1/T1',
        'uploads/user-1/T1-cover',
        'tracks/user-1/T2',
        'tracks/user-1/T2-cover',
        'uploads/user-1/T2',
        'uploads/user-1/T2-cover',
      ]
        .map((key) => `audio ${key}`)
        .sort(),
    );
    expect(steps.filter((step) => !step.startsWith('audio'))).toEqual(['tracks user-1', 'erase user-1', 'user user-1', 'erase user-1']);
    // The sign-in goes after the data: a crash before it leaves an account that can sign in and ask again.
    expect(steps.indexOf('user user-1')).toBeGreaterThan(steps.lastIndexOf('audio tracks/user-1/T2-cover'));
    expect(deleted).toEqual({ canceledSubscriptions: 2, deletedTracks: 2, linkedItems: 2, userItems: 4 });
  });

  it('a user who never checked out asks the provider nothing', async () => {
    const { deps, provider } = fakes();
    await deleteAccount(deps, USER, USER.email);
    expect(provider.cancellations).toEqual([]);
  });

  it('a retry after a crash finishes the job: the subscription already ended is not an error', async () => {
    const { deps, steps, provider } = fakes({ customerId: 'cus_1', failUsersOnce: true });
    provider.setSubscription('cus_1', buildSubscription({ id: 'sub_a', status: 'active' }));
    await expect(deleteAccount(deps, USER, USER.email)).rejects.toThrow('cognito down');
    provider.cancelledMeanwhile = true;
    provider.setSubscription('cus_1', buildSubscription({ id: 'sub_a', status: 'active' }));
    await deleteAccount(deps, USER, USER.email);
    expect(provider.cancellations.map((c) => c.outcome)).toEqual(['canceled', 'already_ended']);
    expect(steps.filter((step) => step.startsWith('user'))).toEqual(['user user-1', 'user user-1']);
    expect(steps.at(-1)).toBe('erase user-1');
  });
});

describe('the data export', () => {
  it('contacts.csv: a header of the contact form’s labels, a row per contact, formulas neutralised', () => {
    const csv = contactsCsv([
      buildContact({ name: 'Mara Velvet', email: 'mara@example.com', label_name: 'Velvet, Inc.', notes: '=HYPERLINK("x")' }),
      buildContact({
        name: 'Jo',
        email: 'jo@example.com',
        label_name: null,
        last_answer: { answer: 'interested', note: null, answered_at: '2026-11-01T00:00:00.000Z', campaign_id: 'C1', track_name: 'Night Drive' },
      }),
    ]);
    const lines = csv.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Name,Email,Label/Company,Contact Type,Position,Genre,Website,Notes,Genre Focus,Time zone,Added,Last Answer');
    expect(lines[1]).toContain('Mara Velvet,mara@example.com,"Velvet, Inc."');
    expect(lines[1]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines[2]).toMatch(/,interested$/);
    expect(lines).toHaveLength(3);
  });

  it('contacts.csv imports back: every field the contact form takes maps back by its header (not the directory’s or the server’s own)', () => {
    const exported = buildContact({
      name: 'Kai',
      email: 'kai@label.jp',
      label_name: 'Label JP',
      position: 'A&R',
      website_url: 'https://label.jp',
      time_zone: 'Asia/Tokyo',
    });
    const read = readContactsCsv(contactsCsv([exported]).replace(/^\uFEFF/, ''));
    if (!read.ok) throw new Error(read.error);
    const mapping = guessMapping(read.table, true);
    expect(mapping).toEqual(['name', 'email', 'label_name', 'contact_type', 'position', 'genre', 'website_url', 'notes', 'skip', 'time_zone', 'skip', 'skip']);
    const planned = planContactImport(read.table, { hasHeader: true, removeDuplicates: true, mapping });
    if (!planned.ok) throw new Error(planned.error);
    expect(planned.plan.contacts).toEqual([
      expect.objectContaining({ name: 'Kai', email: 'kai@label.jp', label_name: 'Label JP', position: 'A&R', time_zone: 'Asia/Tokyo' }),
    ]);
  });

  it('campaigns.json: each campaign with its emails, their content and answers, without the tokens', async () => {
    const campaigns: ExportedCampaign[] = [
      {
        campaign: buildCampaign({ id: 'C1', track_name: 'Night Drive' }),
        emails: [buildRecipient({ position: 0, token: 'secret-token', subject: 'Night Drive', answer: 'interested', answer_note: 'More!' })],
      },
      { campaign: buildCampaign({ id: 'C2' }), emails: [] },
    ];
    async function* stored() {
      for (const campaign of campaigns) yield await Promise.resolve(campaign);
    }
    let text = '';
    for await (const piece of campaignsJson(stored())) text += piece;
    const parsed = JSON.parse(text) as { id: string; track_name: string; emails: Record<string, unknown>[] }[];
    expect(parsed.map((c) => c.id)).toEqual(['C1', 'C2']);
    expect(parsed[0]?.emails[0]).toMatchObject({ position: 0, subject: 'Night Drive', answer: 'interested', answer_note: 'More!' });
    expect(parsed[0]?.emails[0]).not.toHaveProperty('token');
    expect(parsed[1]?.emails).toEqual([]);
    let empty = '';
    for await (const piece of campaignsJson((async function* () {})())) empty += piece;
    expect(JSON.parse(empty)).toEqual([]);
  });

  it('names its files contacts.csv and campaigns.json, in that order', async () => {
    const files = await accountExportFiles('user-1', { contacts: () => Promise.resolve([]), campaigns: async function* () {} });
    expect(files.map((file) => file.name)).toEqual(['contacts.csv', 'campaigns.json']);
  });
});

describe('GET /api/account/export over fakes', () => {
  const now = new Date('2026-11-28T10:00:00.000Z');
  const EXPORT_ID = '01KAKZ3R0000000000000000EX';

  function exportFakes(options: { failWrite?: boolean } = {}) {
    const written: { key: string; contentType: string; chunks: number; bytes: Buffer }[] = [];
    const signed: { key: string; expiresInSeconds: number; downloadName?: string }[] = [];
    const exports: ExportStore = {
      write: async (key, chunks, { contentType }) => {
        const parts: Buffer[] = [];
        for await (const chunk of chunks) {
          parts.push(Buffer.from(chunk));
          if (options.failWrite) throw new Error('S3 is down');
        }
        written.push({ key, contentType, chunks: parts.length, bytes: Buffer.concat(parts) });
        return { bytes: Buffer.concat(parts).length };
      },
    };
    const exportUrls: AudioUrls = {
      signedGetUrl: (key, { expiresInSeconds, downloadName }) => {
        signed.push({ key, expiresInSeconds, ...(downloadName ? { downloadName } : {}) });
        return Promise.resolve(`https://storage.example/${key}?signed`);
      },
    };
    const { deps } = fakes();
    const data: AccountDataStore = {
      ...deps.data,
      contacts: (userId) => Promise.resolve([buildContact({ name: `Contact of ${userId}`, email: 'mara@example.com' })]),
      campaigns: async function* (userId) {
        yield await Promise.resolve({ campaign: buildCampaign({ id: `C-${userId}` }), emails: [] });
      },
    };
    const handler = makeHandler({ ...deps, data, clock: { now: () => now }, ids: { next: () => EXPORT_ID }, exports, exportUrls });
    return { handler, written, signed };
  }

  const request = (sub: string) =>
    buildApiEvent({
      method: 'GET',
      url: '/api/account/export',
      headers: {},
      sourceIp: '127.0.0.1',
      route: { method: 'GET', path: '/api/account/export' },
      pathParameters: {},
      claims: { sub, email: `${sub}@example.com` },
      requestId: 'req-1',
      now,
    });
  const context = () => makeLambdaContext({ functionName: 'test', awsRequestId: 'req-1', region: 'us-east-1', timeoutMs: 10_000 });

  it("writes the token's user's zip to the export store a chunk at a time, and answers its signed URL, name and expiry", async () => {
    const { handler, written, signed } = exportFakes();
    const result = await handler(request('user-1'), context());
    expect(result.statusCode).toBe(200);
    const body = accountExportSchema.parse(JSON.parse(result.body ?? 'null'));
    const key = `${EXPORTS_PREFIX}user-1/${EXPORT_ID}`;
    expect(body).toEqual({
      url: `https://storage.example/${key}?signed`,
      file_name: 'trackpitch-data-2026-11-28.zip',
      expires_at: new Date(now.getTime() + EXPORT_URL_SECONDS * 1000).toISOString(),
    });
    expect(signed).toEqual([{ key, expiresInSeconds: EXPORT_URL_SECONDS, downloadName: 'trackpitch-data-2026-11-28.zip' }]);
    expect(written.map((w) => [w.key, w.contentType])).toEqual([[key, 'application/zip']]);
    // The store took the archive as it was built: many chunks, not one buffer.
    expect(written[0]!.chunks).toBeGreaterThan(2);
    const files = readZip(written[0]!.bytes);
    expect([...files.keys()]).toEqual(['contacts.csv', 'campaigns.json']);
    expect(files.get('contacts.csv')!.toString('utf8')).toContain('Contact of user-1');
    expect(JSON.parse(files.get('campaigns.json')!.toString('utf8'))).toEqual([expect.objectContaining({ id: 'C-user-1' })]);
    expect(result.body).not.toContain('Contact of');
  });

  it("another user's token writes and signs under that user's own folder, with that user's data only", async () => {
    const { handler, written, signed } = exportFakes();
    await handler(request('user-2'), context());
    expect(written.map((w) => w.key)).toEqual([`${EXPORTS_PREFIX}user-2/${EXPORT_ID}`]);
    expect(signed.map((s) => s.key)).toEqual([`${EXPORTS_PREFIX}user-2/${EXPORT_ID}`]);
    expect(readZip(written[0]!.bytes).get('contacts.csv')!.toString('utf8')).not.toContain('user-1');
  });

  it('a failed write answers 500 and signs no URL', async () => {
    const { handler, signed } = exportFakes({ failWrite: true });
    const result = await handler(request('user-1'), context());
    expect(result.statusCode).toBe(500);
    expect(signed).toEqual([]);
  });
});
