/**
 * The data export at scale (issue 26 §3), end to end on an in-memory local stack: GET /api/account/export
 * for an account of 5,000 contacts and 2,000 sent emails (20 campaigns of 100, each email with its
 * content), timed until the zip is stored (the local audio store, as S3 in AWS) and its URL answered,
 * against the engine's floor: the same items read raw with Query (no zip, no HTTP). Must stay under
 * 10 s; the stored archive is downloaded from its URL, opened and counted on every run.
 *
 *   npx tsx bench/export.ts [contacts] [emails] [runs]
 */
import { DynamoContactStore } from '../lambdas/adapters/dynamodb/contactStore';
import { batchWriteAll } from '../lambdas/adapters/dynamodb/batch';
import { queryAll } from '../lambdas/adapters/dynamodb/query';
import { accountExportSchema } from '../schema/api/account';
import { indexes, key } from '../schema/table';
import { uniqueEmail } from '../tests/support/accounts';
import { readZip } from '../tests/support/zip';
import { medianOf, startBenchStack } from './stack';

const contactCount = Number(process.argv[2] ?? 5000);
const emailCount = Number(process.argv[3] ?? 2000);
const runs = Number(process.argv[4] ?? 3);
const PER_CAMPAIGN = 100;
const LIMIT_MS = 10_000;

const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;

const bench = await startBenchStack();
const { stack, db, users } = bench;
try {
  const account = await users.create({ email: uniqueEmail('export') });
  const now = new Date();
  const contacts = Array.from({ length: contactCount }, (_, i) => ({
    email: `contact-${i}@example.net`,
    name: `Contact ${i}, A&R`,
    label_name: `Label ${i % 200}`,
    contact_type: 'Label' as const,
    position: null,
    genre: 'house, techno',
    website_url: null,
    notes: `Met at ADE ${2020 + (i % 6)}`,
  }));
  const { created } = await new DynamoContactStore(db, stack.tableName).importMany(account.sub, contacts, now);
  if (created.length !== contactCount) throw new Error(`seeded ${created.length} contacts`);

  const campaignIds = Array.from({ length: Math.ceil(emailCount / PER_CAMPAIGN) }, (_, i) => `01KAKZ3R0000000000000${String(i).padStart(5, '0')}`);
  const body = `<p>Hi [CONTACT_NAME],</p>${'<p>A new track for your label: deep, warm and ready for the floor.</p>'.repeat(20)}`;
  const requests = campaignIds.flatMap((campaignId, c) => [
    {
      PutRequest: {
        Item: {
          PK: key.user(account.sub),
          SK: key.campaign(campaignId),
          id: campaignId,
          status: 'completed',
          track_name: `Track ${c}`,
          email_body: body,
          created_at: now.toISOString(),
        },
      },
    },
    ...Array.from({ length: Math.min(PER_CAMPAIGN, emailCount - c * PER_CAMPAIGN) }, (_, position) => ({
      PutRequest: {
        Item: {
          PK: key.campaignPartition(campaignId),
          SK: key.recipient(position),
          campaign_id: campaignId,
          user_id: account.sub,
          position,
          recipient_name: `Contact ${position}`,
          recipient_email: `contact-${position}@example.net`,
          status: 'sent',
          subject: `Track ${c}`,
          html: body,
          text: body.replace(/<[^>]+>/g, ''),
          sent_at: now.toISOString(),
          token: `token-${c}-${position}`,
          answer: position % 3 === 0 ? 'interested' : null,
          answer_note: position % 3 === 0 ? 'Send me the WAVs' : null,
          [indexes.byLookup.partitionKey]: key.sentTimeline(account.sub),
          [indexes.byLookup.sortKey]: key.sentTimeSort(now.toISOString(), campaignId, position),
        },
      },
    })),
  ]);
  await batchWriteAll(db, stack.tableName, requests);

  // The floor: the same items, read raw.
  const floorTimes: number[] = [];
  const exportTimes: number[] = [];
  let bytes = 0;
  for (let run = 0; run <= runs; run++) {
    const t0 = performance.now();
    const rows = await queryAll(db, {
      TableName: stack.tableName,
      IndexName: indexes.byLookup.name,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': indexes.byLookup.partitionKey },
      ExpressionAttributeValues: { ':pk': key.contactTimeline(account.sub) },
    });
    let emails = 0;
    for (const campaignId of campaignIds) {
      emails += (
        await queryAll(db, {
          TableName: stack.tableName,
          KeyConditionExpression: 'PK = :pk',
          ExpressionAttributeValues: { ':pk': key.campaignPartition(campaignId) },
        })
      ).length;
    }
    const floor = performance.now() - t0;
    if (rows.length !== contactCount || emails !== emailCount) throw new Error(`floor read ${rows.length} contacts and ${emails} emails`);

    // Timed: until the zip is stored whole and the answer names its URL (the browser's download from storage is not the app's time).
    const t1 = performance.now();
    const response = await fetch(`${stack.appUrl}/api/account/export`, { headers: { authorization: `Bearer ${account.idToken}` } });
    const answer = await response.text();
    const elapsed = performance.now() - t1;
    if (response.status !== 200) throw new Error(`export answered ${response.status}: ${answer.slice(0, 200)}`);
    const stored = await fetch(accountExportSchema.parse(JSON.parse(answer)).url);
    if (stored.status !== 200) throw new Error(`the stored zip answered ${stored.status}`);
    const zip = Buffer.from(await stored.arrayBuffer());
    const files = readZip(zip);
    const fileText = (name: string) => {
      const file = files.get(name);
      if (!file) throw new Error(`the zip has no ${name}`);
      return file.toString('utf8');
    };
    const csvRows = fileText('contacts.csv').split('\r\n').length - 1;
    const exported = (JSON.parse(fileText('campaigns.json')) as { emails: unknown[] }[]).reduce((sum, c) => sum + c.emails.length, 0);
    if (csvRows !== contactCount || exported !== emailCount) throw new Error(`the zip holds ${csvRows} contacts and ${exported} emails`);
    bytes = zip.length;
    if (run === 0) continue; // warm-up: connections, JIT
    floorTimes.push(floor);
    exportTimes.push(elapsed);
  }
  const median = medianOf(exportTimes);
  const floor = medianOf(floorTimes);
  console.log(
    `GET /api/account/export of ${contactCount} contacts and ${emailCount} sent emails, to the stored zip: median ${seconds(median)} over ${runs} runs ` +
      `(max ${seconds(Math.max(...exportTimes))}), a ${(bytes / 1024).toFixed(0)} KB zip; the engine's raw reads of the same items ${seconds(floor)}: ` +
      `${(median / floor).toFixed(1)}× the floor`,
  );
  if (Math.max(...exportTimes) >= LIMIT_MS) throw new Error(`the export took ${seconds(Math.max(...exportTimes))}, over ${seconds(LIMIT_MS)}`);
} finally {
  await bench.stop();
}
