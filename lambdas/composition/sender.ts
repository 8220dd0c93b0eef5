/**
 * The sender's adapters: the pipeline's store, the mailer (Gmail in AWS, the local mailbox locally),
 * the secret box that opens refresh tokens, the writer and the sanitizer for personalised emails.
 */
import { systemClock } from '../adapters/clock';
import { DynamoOutboxStore } from '../adapters/dynamodb/outboxStore';
import { DynamoSenderStore } from '../adapters/dynamodb/sending/sender';
import { DynamoWrittenEmailStore } from '../adapters/dynamodb/writtenEmailStore';
import { GmailMailer } from '../adapters/gmail/gmailMailer';
import { DomPurifySanitizer } from '../adapters/html/domPurifySanitizer';
import { LocalMailer } from '../adapters/local-mailbox/localMailer';
import { ulidGenerator } from '../adapters/ulid';
import type { Mailer } from '../ports';
import type { SenderDeps } from '../workers/sender';
import type { ServerConfig } from './config';
import { googleClient, secretsManagerOf } from './googleClient';
import { notConfigured } from './notConfigured';
import { makeSecretBox } from './secretBox';
import { tableOf, type Table } from './table';
import { makeWriter } from './writer';

function makeMailer(config: ServerConfig, { db, name }: Table): Mailer {
  if (config.mailbox === 'local') return new LocalMailer(new DynamoOutboxStore(db, name, { ids: ulidGenerator() }), systemClock);
  const google = googleClient(config, secretsManagerOf(config));
  return google ? new GmailMailer(google) : { send: notConfigured('Google OAuth') };
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
  };
}
