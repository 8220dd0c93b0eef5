/**
 * Compose (issue 5): what an artist waits for, end to end on an in-memory local stack, and what the
 * campaigns Lambda pays per email in CPU:
 * - the sanitizer's first call in a fresh process (jsdom load + DOMPurify setup: a Lambda cold start
 *   pays it once) and a warm call on a template email;
 * - renderEmail per recipient (placeholders, HTML, text part) on a template email;
 * - POST /api/campaigns/generate-preview (local writer) and POST /api/campaigns (an HTML draft,
 *   sanitized), and POST /api/campaigns/{id}/recipient-preview for a writer-personalised draft: first
 *   look (writes and keeps the email) and a second look (reads it back).
 * Prints figures; asserts only that the answers are right.
 *
 *   npx tsx bench/compose.ts [runs]
 */
import { execFileSync } from 'node:child_process';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { performance } from 'node:perf_hooks';
import { DomPurifySanitizer } from '../lambdas/adapters/html/domPurifySanitizer';
import { campaignSchema, recipientPreviewSchema } from '../schema/api/campaigns';
import { contactSchema, type Contact } from '../schema/api/contacts';
import { buildHtmlTemplate } from '../schema/email/htmlTemplates';
import { renderEmail } from '../schema/email/render';
import { key } from '../schema/table';
import { uniqueEmail } from '../tests/support/accounts';
import { medianOf, startBenchStack, valueAt } from './stack';

const runs = Number(process.argv[2] ?? 20);
const ms = (value: number) => `${value.toFixed(1)} ms`;

async function timed(fn: () => unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

const templateInput = {
  track_name: 'Midnight Drive',
  track_url: 'https://soundcloud.com/nova-pulse/midnight-drive',
  genre: 'techno',
  description: 'A rolling, hypnotic warehouse cut with a slow-building acid line.',
  artist_name: 'Nova Pulse',
  social_links: [{ label: 'SoundCloud', url: 'https://soundcloud.com/nova-pulse' }],
  accent: '#10b981',
};
const html = buildHtmlTemplate('bold', templateInput);

// 1. The sanitizer's cold first call, in fresh processes (what a Lambda cold start pays once).
const coldScript = `
  import { performance } from 'node:perf_hooks';
  const { DomPurifySanitizer } = await import(${JSON.stringify(new URL('../lambdas/adapters/html/domPurifySanitizer.ts', import.meta.url).pathname)});
  const start = performance.now();
  new DomPurifySanitizer().sanitize(${JSON.stringify(html)});
  console.log(performance.now() - start);`;
const cold: number[] = [];
for (let i = 0; i < 3; i++) {
  cold.push(Number(execFileSync('npx', ['tsx', '--input-type=module', '-e', coldScript], { encoding: 'utf8' }).trim().split('\n').pop()));
}
console.log(`sanitizer first call in a fresh process (jsdom load + setup), median of 3: ${ms(medianOf(cold))}`);

const sanitizer = new DomPurifySanitizer();
sanitizer.sanitize(html);
const warm: number[] = [];
for (let i = 0; i < runs; i++) warm.push(await timed(() => sanitizer.sanitize(html)));
console.log(`sanitizer warm call on a ${(html.length / 1024).toFixed(1)} KB template email, median: ${ms(medianOf(warm))}`);

// 2. renderEmail per recipient.
const stored = sanitizer.sanitize(html);
const render: number[] = [];
for (let i = 0; i < runs * 10; i++) {
  render.push(
    await timed(() =>
      renderEmail(
        { subject: 'Demo Submission: [TRACK_NAME]', body: stored },
        {
          recipient: { name: `Contact ${i}`, email: `c${i}@label.example`, label_name: 'Velvet Records' },
          track: { track_name: 'Midnight Drive', track_url: templateInput.track_url, genre: 'techno' },
          artistName: 'Nova Pulse',
        },
        { unsubscribeUrl: `https://app.example/unsubscribe?token=${i}` },
      ),
    ),
  );
}
console.log(`renderEmail per recipient (HTML template email), median: ${ms(medianOf(render))}`);

// 3. The API, end to end.
const bench = await startBenchStack();
try {
  const user = { email: uniqueEmail('bench-compose'), password: 'Bench-compose-1', name: 'Nova Pulse' };
  await bench.users.create(user);
  const { idToken } = await bench.users.signIn(user.email, user.password);
  const call = async (path: string, method: string, body?: unknown) => {
    const response = await fetch(`${bench.stack.appUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${idToken}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<unknown>;
  };
  // The Expert plan's AI preview allowance (120 writer calls an hour) holds the 2 × runs previews below.
  const { id: userId } = (await call('/api/profile', 'GET')) as { id: string };
  await bench.db.send(
    new UpdateCommand({
      TableName: bench.stack.tableName,
      Key: { PK: key.user(userId), SK: key.profile() },
      UpdateExpression: 'SET tier = :label',
      ExpressionAttributeValues: { ':label': 'label' },
    }),
  );
  const contacts: Contact[] = [];
  for (let i = 0; i < runs + 1; i++) {
    contacts.push(
      contactSchema.parse(
        await call('/api/contacts', 'POST', {
          name: `Contact ${i} Reyes`,
          email: uniqueEmail(`c${i}`),
          label_name: `Label ${i} Records`,
          contact_type: i % 2 ? 'DJ' : 'Label',
        }),
      ),
    );
  }
  const track = {
    track_name: 'Midnight Drive',
    track_url: templateInput.track_url,
    genre: 'techno',
    description: templateInput.description,
  };

  const generate: number[] = [];
  let campaignId = '';
  for (let i = 0; i < runs; i++) {
    generate.push(
      await timed(async () => {
        const campaign = campaignSchema.parse(
          await call('/api/campaigns/generate-preview', 'POST', { track, contact_id: valueAt(contacts, 0).id, total_recipients: contacts.length }),
        );
        campaignId = campaign.id;
      }),
    );
  }
  console.log(`POST /api/campaigns/generate-preview (local writer, new draft), median of ${runs}: ${ms(medianOf(generate))}`);

  const htmlDraft: number[] = [];
  for (let i = 0; i < runs; i++) {
    htmlDraft.push(
      await timed(() =>
        call('/api/campaigns', 'POST', { mode: 'html', track: {}, email_subject: 'Demo Submission: Midnight Drive', email_body: html, total_recipients: 3 }),
      ),
    );
  }
  console.log(`POST /api/campaigns (HTML draft, ${(html.length / 1024).toFixed(1)} KB, sanitized), median of ${runs}: ${ms(medianOf(htmlDraft))}`);

  const firstLook: number[] = [];
  const secondLook: number[] = [];
  for (const contact of contacts.slice(1)) {
    const path = `/api/campaigns/${campaignId}/recipient-preview`;
    firstLook.push(await timed(async () => recipientPreviewSchema.parse(await call(path, 'POST', { contact_id: contact.id }))));
    secondLook.push(await timed(async () => recipientPreviewSchema.parse(await call(path, 'POST', { contact_id: contact.id }))));
  }
  console.log(
    `POST recipient-preview of a personalised draft: first look (write + keep) median ${ms(medianOf(firstLook))}, second look (read back) median ${ms(medianOf(secondLook))}`,
  );
} finally {
  await bench.stop();
}
