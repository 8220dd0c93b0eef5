import { BatchWriteCommand, type BatchWriteCommandInput, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { applyDirectoryDefaults, directoryEntrySchema, hasKnownLocation, normalizeGenres } from '../../schema/api/directory';
import { genres } from '../../schema/api/options';
import { campaignTemplateSchema, templateVariables } from '../../schema/api/templates';
import { directoryEntries, seedSystemData, systemTemplates } from '../../lib/local/seed';

const TABLE = 'seed-test';

/** RFC 2606 / 6761 reserved names: example.com/.org/.net (and their subdomains), *.example, *.test. */
function isReservedHost(host: string): boolean {
  return /(^|\.)example\.(com|org|net)$/.test(host) || /\.(example|test)$/.test(host);
}

type Item = Record<string, unknown>;

/** A stand-in for the document client: records every BatchWriteCommand and keeps a PK/SK map. */
function fakeDb(options: { unprocessedOnFirstCall?: number } = {}) {
  const inputs: BatchWriteCommandInput[] = [];
  const table = new Map<string, Item>();
  let calls = 0;
  const client = {
    send(command: unknown) {
      if (!(command instanceof BatchWriteCommand)) return Promise.reject(new Error('unexpected command'));
      calls++;
      inputs.push(command.input);
      const requests = command.input.RequestItems?.[TABLE] ?? [];
      const held = calls === 1 ? (options.unprocessedOnFirstCall ?? 0) : 0;
      const unprocessed = requests.slice(requests.length - held);
      for (const request of requests.slice(0, requests.length - held)) {
        const item = request.PutRequest?.Item as Item;
        table.set(`${String(item.PK)}|${String(item.SK)}`, structuredClone(item));
      }
      return Promise.resolve({ UnprocessedItems: unprocessed.length ? { [TABLE]: unprocessed } : {} });
    },
  };
  return { db: client as unknown as DynamoDBDocumentClient, inputs, table };
}

describe('system templates', () => {
  it('are exactly Demo to Label, DJ Promo and Fan Preview, each valid', () => {
    expect(systemTemplates.map((t) => t.name)).toEqual(['Demo to Label', 'DJ Promo', 'Fan Preview']);
    for (const template of systemTemplates) {
      expect(campaignTemplateSchema.parse(template)).toEqual(template);
      expect(template.is_system_template).toBe(true);
      expect(template.description.length).toBeGreaterThan(10);
    }
    expect(new Set(systemTemplates.map((t) => t.id)).size).toBe(3);
    expect(new Set(systemTemplates.map((t) => t.ai_tone))).toEqual(new Set(['professional', 'friendly', 'casual']));
  });

  it('use the required variables, and only known ones', () => {
    for (const template of systemTemplates) {
      for (const variable of ['{{contact_name}}', '{{track_name}}', '{{track_url}}', '{{UNSUBSCRIBE_FOOTER}}']) {
        expect(template.body_template, `${template.name} uses ${variable}`).toContain(variable);
      }
      const used = `${template.subject_template}\n${template.body_template}`.match(/\{\{[^}]*\}\}/g) ?? [];
      for (const variable of used) expect(templateVariables as readonly string[]).toContain(variable);
      expect(template.body_template.trimEnd().endsWith('{{UNSUBSCRIBE_FOOTER}}')).toBe(true);
    }
  });
});

describe('directory seed', () => {
  it('has at least 100 entries with stable, unique ids, each valid', () => {
    expect(directoryEntries.length).toBeGreaterThanOrEqual(100);
    directoryEntries.forEach((entry, i) => {
      expect(directoryEntrySchema.parse(entry)).toEqual(entry);
      expect(entry.id).toBe(`lf-${String(i + 1).padStart(3, '0')}`);
      expect(entry.name.trim()).not.toBe('');
      expect(entry.description.length).toBeGreaterThan(30);
      expect(entry.submission_guidelines.length).toBeGreaterThan(30);
    });
    expect(new Set(directoryEntries.map((e) => e.name.toLowerCase())).size).toBe(directoryEntries.length);
  });

  it('uses only reserved domains, with unique emails', () => {
    const emails = directoryEntries.map((e) => e.email.toLowerCase());
    expect(new Set(emails).size).toBe(emails.length);
    for (const email of emails) {
      expect(email).toMatch(/^[^\s@]+@[^\s@]+\.[^\s@]+$/);
      expect(isReservedHost(email.split('@')[1] ?? ''), email).toBe(true);
    }
    const websites = directoryEntries.flatMap((e) => (e.website_url ? [e.website_url] : []));
    expect(websites.length).toBeGreaterThan(directoryEntries.length * 0.8);
    expect(new Set(websites).size).toBe(websites.length);
    for (const website of websites) {
      const url = new URL(website);
      expect(url.protocol).toBe('https:');
      expect(isReservedHost(url.hostname), website).toBe(true);
    }
  });

  it('takes one to three genres from the option list, covering all of them', () => {
    for (const entry of directoryEntries) {
      expect(entry.genres.length).toBeGreaterThanOrEqual(1);
      expect(entry.genres.length).toBeLessThanOrEqual(3);
      expect(new Set(entry.genres).size).toBe(entry.genres.length);
      for (const genre of entry.genres) expect(genres).toContain(genre);
    }
    expect(new Set(directoryEntries.flatMap((e) => e.genres))).toEqual(new Set(genres));
  });

  it('mixes labels and DJs, features some, and leaves some without a location', () => {
    const djs = directoryEntries.filter((e) => e.contact_type === 'DJ').length;
    const labels = directoryEntries.filter((e) => e.contact_type === 'Label').length;
    expect(djs).toBeGreaterThan(10);
    expect(labels).toBeGreaterThan(djs);
    const featured = directoryEntries.filter((e) => e.is_featured).length;
    expect(featured / directoryEntries.length).toBeGreaterThan(0.1);
    expect(featured / directoryEntries.length).toBeLessThan(0.2);
    const unlocated = directoryEntries.filter((e) => !hasKnownLocation(e.location));
    expect(unlocated.length).toBeGreaterThanOrEqual(3);
    expect(unlocated.some((e) => e.location === '')).toBe(true);
    expect(unlocated.some((e) => e.location.toLowerCase() === 'unknown')).toBe(true);
    expect(new Set(directoryEntries.map((e) => e.label_size)).size).toBeGreaterThanOrEqual(4);
  });
});

describe('directory defaults', () => {
  it('fills the spec defaults for missing or blank fields', () => {
    expect(applyDirectoryDefaults({ id: 'x1', name: '  ', email: null })).toEqual({
      id: 'x1',
      name: 'Unnamed Contact',
      email: 'No email',
      genres: [],
      location: 'Unknown Location',
      label_size: 'Independent',
      description: 'No description available',
      website_url: null,
      submission_guidelines: 'No guidelines provided',
      is_featured: false,
      contact_type: 'Label',
      demo_policy: null,
    });
  });

  it('normalises genres, type and flags from loose input', () => {
    const entry = applyDirectoryDefaults({
      id: 'x2',
      name: ' Night Shift ',
      genres: 'Deep House, Drum & Bass, deep-house, polka',
      contact_type: 'dj',
      is_featured: 'Yes',
      website_url: ' https://nightshift.example ',
    });
    expect(entry).toMatchObject({
      name: 'Night Shift',
      genres: ['deep-house', 'drum-bass', 'other'],
      contact_type: 'DJ',
      is_featured: true,
      website_url: 'https://nightshift.example',
    });
    expect(directoryEntrySchema.parse(entry)).toEqual(entry);
    expect(normalizeGenres(['Tech House', 'TECHNO', ''])).toEqual(['tech-house', 'techno']);
  });

  it('treats blank, unknown and the default as no location', () => {
    for (const value of ['', '  ', 'unknown', 'Unknown', 'Unknown Location', null, undefined]) {
      expect(hasKnownLocation(value)).toBe(false);
    }
    expect(hasKnownLocation('Berlin, Germany')).toBe(true);
  });
});

describe('seedSystemData', () => {
  it('writes every item under the documented keys, in batches of at most 25', async () => {
    const { db, inputs, table } = fakeDb();
    const counts = await seedSystemData(db, TABLE);
    expect(counts).toEqual({ templates: 3, directoryEntries: directoryEntries.length });

    for (const input of inputs) {
      expect(Object.keys(input.RequestItems ?? {})).toEqual([TABLE]);
      const requests = input.RequestItems?.[TABLE] ?? [];
      expect(requests.length).toBeGreaterThan(0);
      expect(requests.length).toBeLessThanOrEqual(25);
      const keysInBatch = requests.map((r) => `${String(r.PutRequest?.Item?.PK)}|${String(r.PutRequest?.Item?.SK)}`);
      expect(new Set(keysInBatch).size).toBe(keysInBatch.length);
    }
    expect(inputs.length).toBe(Math.ceil((3 + directoryEntries.length) / 25));
    expect(table.size).toBe(3 + directoryEntries.length);

    for (const template of systemTemplates) {
      expect(table.get(`TEMPLATE|${template.name}`)).toEqual({ ...template, PK: 'TEMPLATE', SK: template.name, entity: 'template' });
    }
    for (const entry of directoryEntries) {
      expect(table.get(`DIRECTORY|ENTRY#${entry.id}`)).toEqual({
        ...entry,
        PK: 'DIRECTORY',
        SK: `ENTRY#${entry.id}`,
        GSI1PK: 'DIRECTORY#EMAIL',
        GSI1SK: entry.email.toLowerCase(),
        entity: 'directory',
      });
    }
  });

  it('is idempotent: a second run leaves the same items', async () => {
    const { db, table } = fakeDb();
    await seedSystemData(db, TABLE);
    const first = structuredClone([...table.entries()]);
    await seedSystemData(db, TABLE);
    expect([...table.entries()]).toEqual(first);
  });

  it('retries unprocessed items until they are written', async () => {
    const { db, inputs, table } = fakeDb({ unprocessedOnFirstCall: 7 });
    await seedSystemData(db, TABLE, { baseDelayMs: 1 });
    expect(table.size).toBe(3 + directoryEntries.length);
    expect(inputs.length).toBe(Math.ceil((3 + directoryEntries.length) / 25) + 1);
    expect(inputs.some((input) => input.RequestItems?.[TABLE]?.length === 7)).toBe(true);
  });

  it('gives up after maxAttempts when items stay unprocessed', async () => {
    const client = {
      send(command: BatchWriteCommand) {
        return Promise.resolve({ UnprocessedItems: command.input.RequestItems });
      },
    } as unknown as DynamoDBDocumentClient;
    await expect(seedSystemData(client, TABLE, { maxAttempts: 2, baseDelayMs: 1 })).rejects.toThrow(/unprocessed after 2 attempts/);
  });
});

describe('directory seed: demo policies (issue 28 §2)', () => {
  const policies = directoryEntries.flatMap((entry) => (entry.demo_policy ? [{ entry, policy: entry.demo_policy }] : []));

  it('gives most entries a policy, varied: email labels, form-only and platform-only ones with a link, private-links-only, unreleased-only', () => {
    expect(policies.length).toBeGreaterThan(directoryEntries.length * 0.75);
    expect(policies.length).toBeLessThan(directoryEntries.length);
    const count = (keep: (p: (typeof policies)[number]['policy']) => boolean) => policies.filter(({ policy }) => keep(policy)).length;
    expect(count((p) => p.submit_by === 'email')).toBeGreaterThan(50);
    expect(count((p) => p.submit_by === 'web_form')).toBeGreaterThanOrEqual(5);
    expect(count((p) => p.submit_by === 'platform_only')).toBeGreaterThanOrEqual(3);
    expect(count((p) => p.submit_by === 'email' && p.private_streaming_only)).toBeGreaterThanOrEqual(5);
    expect(count((p) => p.unreleased_only)).toBeGreaterThanOrEqual(3);
    expect(count((p) => p.download_wanted)).toBeGreaterThanOrEqual(3);
    expect(count((p) => p.response_days !== null)).toBeGreaterThan(policies.length / 2);
    expect(count((p) => p.max_email_words !== null)).toBeGreaterThanOrEqual(3);
    expect(count((p) => p.genres.length > 0)).toBeGreaterThan(10);
  });

  it('matches each policy to its entry: a form or platform only for labels, with a reserved-domain link and guidelines saying so; genres among the entry’s', () => {
    for (const { entry, policy } of policies) {
      if (policy.submit_by === 'email') {
        expect(policy.submit_url).toBeNull();
        continue;
      }
      expect(entry.contact_type).toBe('Label');
      const host = new URL(policy.submit_url ?? '').hostname;
      expect(isReservedHost(host), host).toBe(true);
      expect(entry.submission_guidelines).toMatch(policy.submit_by === 'web_form' ? /submission form/ : /submission platform/);
    }
    for (const { entry, policy } of policies) for (const genre of policy.genres) expect(entry.genres).toContain(genre);
  });
});
