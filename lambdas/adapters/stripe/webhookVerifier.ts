/**
 * The webhook verifier of both billing adapters: Stripe's own check (stripe-node's
 * webhooks.constructEventAsync, HMAC-SHA256 over `<timestamp>.<raw body>`, 300 s tolerance) with the
 * signing secret of the deployment (Secrets Manager) or of the local twin (lambdas/adapters/local-secrets).
 * The stripe library is imported on first use, so the routes that never verify do not load it.
 */
import type { Stripe as StripeNamespace } from 'stripe';
import { WEBHOOK_TOLERANCE_SECONDS, WebhookSignatureError } from '../../core/billing';
import type { BillingEvent, Clock, WebhookVerifier } from '../../ports';

export interface StripeWebhookVerifierOptions {
  /** The endpoint's signing secret (`whsec_…`), read on first use. */
  secret: () => Promise<string>;
  /** The time the tolerance is measured from (default: now). */
  clock?: Clock;
}

/** An expandable reference's id: Stripe sends an id, or the object when expanded. */
function idOf(reference: unknown): string | null {
  if (typeof reference === 'string' && reference !== '') return reference;
  if (reference !== null && typeof reference === 'object' && 'id' in reference && typeof reference.id === 'string') return reference.id;
  return null;
}

/** The verified event as the webhook route reads it: its id, type and customer (never a user id the event names). */
export function billingEventOf(event: StripeNamespace.Event): BillingEvent {
  const object = event.data.object as unknown as Record<string, unknown>;
  return {
    id: event.id,
    type: event.type,
    // A customer object's events name itself; every other object names its customer.
    customerId: object.object === 'customer' ? idOf(object.id) : idOf(object.customer),
  };
}

export class StripeWebhookVerifier implements WebhookVerifier {
  constructor(private readonly options: StripeWebhookVerifierOptions) {}

  async verify(rawBody: string, signatureHeader: string | undefined): Promise<BillingEvent> {
    if (!signatureHeader) throw new WebhookSignatureError('The webhook has no Stripe-Signature header.');
    const [{ default: Stripe }, secret] = await Promise.all([import('stripe'), this.options.secret()]);
    let event: StripeNamespace.Event;
    try {
      event = await Stripe.webhooks.constructEventAsync(
        rawBody,
        signatureHeader,
        secret,
        WEBHOOK_TOLERANCE_SECONDS,
        undefined,
        this.options.clock?.now().getTime(),
      );
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
        throw new WebhookSignatureError(`The webhook's signature does not verify: ${error.message}`, { cause: error });
      }
      throw error;
    }
    return billingEventOf(event);
  }
}
