/**
 * The mailbox group's adapters: connecting a mailbox needs the OAuth provider (Google in AWS, the local
 * consent page locally), the OAuth state key and the secret box that seals the refresh token.
 */
import { systemClock } from '../adapters/clock';
import { DynamoMailboxStore } from '../adapters/dynamodb/mailboxStore';
import { DynamoOAuthStateStore } from '../adapters/dynamodb/oauthStateStore';
import { DynamoProfileStore } from '../adapters/dynamodb/profileStore';
import { LocalMailboxAuth } from '../adapters/local-mailbox/localMailboxAuth';
import { localKeys } from '../adapters/local-secrets/localKeys';
import { SecretsManagerOAuthStateKey } from '../adapters/secrets-manager/secretValue';
import { mailboxMessages } from '../../schema/api/sendingValues';
import { notConfiguredMessage } from '../../schema/api/serverMessages';
import type { MailboxDeps } from '../http/mailbox';
import type { MailboxAuthProvider, OAuthStateKeySource } from '../ports';
import type { ServerConfig } from './config';
import { googleClient, secretsManagerOf } from './googleClient';
import { lazyAdapter } from './lazy';
import { notConfigured } from './notConfigured';
import { makeSecretBox } from './secretBox';
import { tableOf } from './table';

function oauthAdapters(config: ServerConfig): { oauthStateKey: OAuthStateKeySource; mailboxAuth: MailboxAuthProvider } {
  if (config.mailbox === 'local') {
    return {
      oauthStateKey: localKeys(config.localDataDir).oauthStateKey,
      mailboxAuth: new LocalMailboxAuth({ consentUrl: `${config.appUrl}/local/mailbox/consent` }),
    };
  }
  const secretsManager = secretsManagerOf(config);
  const google = googleClient(config, secretsManager);
  return {
    oauthStateKey: config.oauthStateSecretName
      ? new SecretsManagerOAuthStateKey(secretsManager(), config.oauthStateSecretName)
      : { key: notConfigured(notConfiguredMessage('Gmail sending', ['OAUTH_STATE_SECRET_NAME'], 'Gmail sending')) },
    // googleapis is loaded by the first connect, callback or disconnect, not when the Lambda starts.
    // Without Google (the default): connect answers 503 with what to set; nothing was connected, so nothing to revoke.
    mailboxAuth: google
      ? lazyAdapter(
          () => import('../adapters/google/googleMailboxAuth').then(({ GoogleMailboxAuth }) => new GoogleMailboxAuth(google)),
          ['authorizationUrl', 'exchangeCode', 'revoke'],
        )
      : {
          authorizationUrl: notConfigured(mailboxMessages.notConfigured),
          exchangeCode: notConfigured(mailboxMessages.notConfigured),
          revoke: () => Promise.resolve(),
        },
  };
}

export function mailboxDeps(config: ServerConfig): MailboxDeps {
  const { db, name } = tableOf(config);
  return {
    profiles: new DynamoProfileStore(db, name),
    mailboxes: new DynamoMailboxStore(db, name),
    oauthStates: new DynamoOAuthStateStore(db, name),
    ...oauthAdapters(config),
    secrets: makeSecretBox(config),
    clock: systemClock,
    sending: { appUrl: config.appUrl },
  };
}
