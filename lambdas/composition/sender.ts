/**
 * The sender's adapters: the pipeline's store, the mailer (Gmail in AWS, the local mailbox locally),
 * the secret box that opens refresh tokens, the writer and the sanitizer for personalised emails.
 */
import { systemClock } from '../adapters/clock';
import { DynamoSenderStore } from '../adapters/dynamodb/sending/sender';
import { DynamoWrittenEmailStore } from '../adapters/dynamodb/writtenEmailStore';
import { DomPurifySanitizer } from '../adapters/html/domPurifySanitizer';
import { ulidGenerator } from '../adapters/ulid';
import { mailboxMessages } from '../../schema/api/sendingValues';
import type { Mailer } from '../ports';
import type { SenderDeps } from '../workers/sender';
import type { ServerConfig } from './config';
import { googleClient, secretsManagerOf } from './googleClient';
import { lazyAdapter } from './lazy';
import { notConfigured } from './notConfigured';
import { makeSecretBox } from './secretBox';
import { tableOf, type Table } from './table';
import { makeWriter } from './writer';

/** Gmail in AWS, the local outbox locally: either (with nodemailer, and googleapis for Gmail) loaded by the first send. */
function makeMailer(config: ServerConfig, { db, name }: Table): Mailer {
  if (config.mailbox === 'local') {
    return lazyAdapter(async () => {
      const [{ LocalMailer }, { DynamoOutboxStore }] = await Promise.all([
        import('../adapters/local-mailbox/localMailer'),
        import('../adapters/dynamodb/outboxStore'),
      ]);
      return new LocalMailer(new DynamoOutboxStore(db, name, { ids: ulidGenerator() }), systemClock);
    }, ['send']);
  }
  const google = googleClient(config, secretsManagerOf(config));
  if (!google) return { send: notConfigured(mailboxMessages.notConfigured) };
  return lazyAdapter(() => import('../adapters/gmail/gmailMailer').then(({ GmailMailer }) => new GmailMailer(google)), ['send']);
}

export function senderDeps(config: ServerConfig): SenderDeps {
  const table = tableOf(config);
  return {
    store: new DynamoSenderStore(table.db, table.name, { intervalMs: config.intervalMs }),
    mailer: makeMailer(config, table),
    clock: systemClock,
    secrets: makeSecretBox(config),
    writer: makeWriter(config),
    // Loads jsdom and builds its DOM on first use (jsdom is installed beside this function only).
    sanitizer: new DomPurifySanitizer(),
    written: new DynamoWrittenEmailStore(table.db, table.name),
    appUrl: config.appUrl,
    intervalMs: config.intervalMs,
    ...(config.followUpDayMs !== undefined ? { followUpDayMs: config.followUpDayMs } : {}),
  };
}
