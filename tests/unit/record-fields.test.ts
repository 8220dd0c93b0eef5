/** The zod-free field lists the stores read (schema/api/recordFields.ts) are exactly their schemas' keys. */
import { describe, expect, it } from 'vitest';
import { campaignSchema, campaignSummarySchema } from '../../schema/api/campaigns';
import { contactInputSchema, contactSchema, unsubscribeSchema } from '../../schema/api/contacts';
import {
  campaignFields,
  campaignSummaryFields,
  contactFields,
  contactInputFields,
  outboxSummaryFields,
  unsubscribeFields,
} from '../../schema/api/recordFields';
import { outboxMessageSummarySchema } from '../../schema/api/sending';

describe('record field lists', () => {
  it.each([
    ['campaign', campaignFields, campaignSchema.shape],
    ['campaign summary', campaignSummaryFields, campaignSummarySchema.shape],
    ['contact', contactFields, contactSchema.shape],
    ['contact input', contactInputFields, contactInputSchema.shape],
    ['unsubscribe', unsubscribeFields, unsubscribeSchema.shape],
    ['outbox message summary', outboxSummaryFields, outboxMessageSummarySchema.shape],
  ] as const)('the %s list names every field of its schema, in its order, and no other', (_name, fields, shape) => {
    expect([...fields]).toEqual(Object.keys(shape));
  });
});
