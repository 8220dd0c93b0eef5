/**
 * One sent email as the sender leaves it, seeded straight into the shared DynamoDB Local for the suites
 * of the public routes a recipient's email leads to (tracking, listen): its RCPT item (status sent, no
 * opens or clicks yet) and its TOKEN item.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { addressId } from '../../lambdas/core/contacts';
import { newEmailToken } from '../../lambdas/core/emailToken';
import type { EmailToken } from '../../lambdas/ports';
import { key } from '../../schema/table';
import { dynamodb, stack, uniqueEmail, type TestUser } from './helpers';

export async function seedSentEmail(user: TestUser, campaignId: string, position: number, overrides: Partial<EmailToken> = {}): Promise<EmailToken> {
  const contactEmail = overrides.contact_email ?? uniqueEmail('label');
  const token: EmailToken = {
    token: newEmailToken(),
    user_id: user.sub,
    campaign_id: campaignId,
    position,
    contact_id: addressId(user.sub, contactEmail),
    contact_email: contactEmail,
    contact_name: 'Mara Velvet',
    artist_name: 'DJ Nova',
    track_name: 'Night Drive',
    links: [],
    // An hour ago: the open classifier's just-sent rule does not apply.
    created_at: new Date(Date.now() - 3_600_000).toISOString(),
    ...overrides,
  };
  const { doc } = dynamodb();
  const TableName = stack().tableName;
  await doc.send(
    new PutCommand({
      TableName,
      Item: {
        PK: key.campaignPartition(campaignId),
        SK: key.recipient(position),
        entity: 'recipient',
        campaign_id: campaignId,
        user_id: user.sub,
        position,
        recipient_name: token.contact_name,
        recipient_email: contactEmail,
        status: 'sent',
        attempts: 1,
        token: token.token,
        sent_at: token.created_at,
        opened_at: null,
        open_count: 0,
        machine_open_count: 0,
        clicked_at: null,
        click_count: 0,
      },
    }),
  );
  await doc.send(new PutCommand({ TableName, Item: { PK: key.tokenPartition(token.token), SK: key.tokenSort(), entity: 'token', ...token } }));
  return token;
}
