/**
 * The webhook verifier (lambdas/adapters/stripe/webhookVerifier.ts): stripe-node's signature check over the
 * raw body with a 300 s tolerance, and the event as the webhook route reads it.
 */
import { describe, expect, it } from 'vitest';
import { WebhookSignatureError } from '../../lambdas/core/billing';
import { StripeWebhookVerifier } from '../../lambdas/adapters/stripe/webhookVerifier';
import { signatureHeader, signedDelivery, stripeEventBody, TEST_WEBHOOK_SECRET } from '../fakes/billing';

const NOW = new Date('2026-11-26T06:00:00.000Z');
const nowSeconds = Math.floor(NOW.getTime() / 1000);
const verifier = new StripeWebhookVerifier({ secret: () => Promise.resolve(TEST_WEBHOOK_SECRET), clock: { now: () => NOW } });

describe('StripeWebhookVerifier', () => {
  it('reads a subscription event: its id, type and customer', async () => {
    const { body, signature } = signedDelivery('customer.subscription.updated', { id: 'evt_1', customerId: 'cus_1' }, { timestamp: nowSeconds });
    expect(await verifier.verify(body, signature)).toEqual({
      id: 'evt_1',
      type: 'customer.subscription.updated',
      customerId: 'cus_1',
    });
  });

  it("reads a completed Checkout's customer, and no user id from it (client_reference_id links nothing)", async () => {
    const { body, signature } = signedDelivery(
      'checkout.session.completed',
      { id: 'evt_2', customerId: 'cus_2', clientReferenceId: 'user-2' },
      { timestamp: nowSeconds },
    );
    expect(await verifier.verify(body, signature)).toEqual({
      id: 'evt_2',
      type: 'checkout.session.completed',
      customerId: 'cus_2',
    });
  });

  it('reads an invoice event and an expanded customer', async () => {
    const body = JSON.stringify({
      ...JSON.parse(stripeEventBody('invoice.paid', { id: 'evt_3', customerId: null })),
      data: { object: { object: 'invoice', customer: { id: 'cus_3', object: 'customer' } } },
    });
    expect(await verifier.verify(body, signatureHeader(body, { timestamp: nowSeconds }))).toMatchObject({ id: 'evt_3', customerId: 'cus_3' });
  });

  it('accepts a signature 299 s old and refuses one 301 s old (stale)', async () => {
    const fresh = signedDelivery('invoice.paid', { customerId: 'cus_1' }, { timestamp: nowSeconds - 299 });
    await expect(verifier.verify(fresh.body, fresh.signature)).resolves.toMatchObject({ customerId: 'cus_1' });
    const stale = signedDelivery('invoice.paid', { customerId: 'cus_1' }, { timestamp: nowSeconds - 301 });
    await expect(verifier.verify(stale.body, stale.signature)).rejects.toThrow(WebhookSignatureError);
  });

  it('refuses another secret, an altered body, and a missing or malformed header', async () => {
    const other = signedDelivery('invoice.paid', { customerId: 'cus_1' }, { timestamp: nowSeconds, secret: 'whsec_someone_else' });
    await expect(verifier.verify(other.body, other.signature)).rejects.toThrow(WebhookSignatureError);
    const { body, signature } = signedDelivery('invoice.paid', { customerId: 'cus_1' }, { timestamp: nowSeconds });
    await expect(verifier.verify(body.replace('cus_1', 'cus_2'), signature)).rejects.toThrow(WebhookSignatureError);
    await expect(verifier.verify(body, undefined)).rejects.toThrow(WebhookSignatureError);
    await expect(verifier.verify(body, '')).rejects.toThrow(WebhookSignatureError);
    await expect(verifier.verify(body, 'garbage')).rejects.toThrow(WebhookSignatureError);
    // The control: the untouched delivery verifies.
    await expect(verifier.verify(body, signature)).resolves.toMatchObject({ customerId: 'cus_1' });
  });
});
