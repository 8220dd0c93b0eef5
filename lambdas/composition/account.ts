/**
 * The account group's adapters (issue 26 §3): the table's items of the user, the billing provider (the
 * billing group's: Stripe in AWS, the local twin otherwise), the audio storage and the user pool
 * (Cognito; cognito-local at its endpoint in the local runtime); the export's zip goes to the audio
 * storage's `exports/` (ExportStore) and is downloaded with a signed GET URL (AudioUrls). The Cognito client is imported on the
 * first deletion, so an export's cold start pays for none of it.
 */
import { systemClock } from '../adapters/clock';
import { DynamoAccountDataStore } from '../adapters/dynamodb/accountDataStore';
import { DynamoBillingStore } from '../adapters/dynamodb/billingStore';
import { DynamoCampaignStore } from '../adapters/dynamodb/campaignStore';
import { localCredentials } from '../adapters/dynamodb/client';
import { ulidGenerator } from '../adapters/ulid';
import type { AccountDeps } from '../http/account';
import type { UserDirectory } from '../ports';
import { audioStoreOf } from './audio';
import { audioUrlsOf } from './audioUrls';
import { exportStoreOf } from './exports';
import { providerAdapters } from './billing';
import type { ServerConfig } from './config';
import { lazyAdapter } from './lazy';
import { notConfigured } from './notConfigured';
import { notConfiguredMessage } from '../../schema/api/serverMessages';
import { tableOf } from './table';

function userDirectoryOf(config: ServerConfig): UserDirectory {
  const { userPoolId, cognitoEndpoint } = config;
  if (!userPoolId) return { deleteUser: notConfigured(notConfiguredMessage('Account deletion', ['USER_POOL_ID'], 'the Cognito user pool')) };
  return lazyAdapter(async () => {
    const [{ CognitoIdentityProviderClient }, { CognitoUserDirectory }] = await Promise.all([
      import('@aws-sdk/client-cognito-identity-provider'),
      import('../adapters/cognito/cognitoUserDirectory'),
    ]);
    const client = new CognitoIdentityProviderClient({
      region: config.region,
      ...(cognitoEndpoint ? { endpoint: cognitoEndpoint, credentials: localCredentials() } : {}),
    });
    return new CognitoUserDirectory(client, userPoolId);
  }, ['deleteUser']);
}

export function accountDeps(config: ServerConfig): AccountDeps {
  const table = tableOf(config);
  return {
    data: new DynamoAccountDataStore(table.db, table.name, { campaigns: new DynamoCampaignStore(table.db, table.name, { ids: ulidGenerator() }) }),
    billing: new DynamoBillingStore(table.db, table.name),
    provider: providerAdapters(config, table).provider,
    audio: audioStoreOf(config),
    users: userDirectoryOf(config),
    clock: systemClock,
    ids: ulidGenerator(),
    exports: exportStoreOf(config),
    exportUrls: audioUrlsOf(config),
  };
}
