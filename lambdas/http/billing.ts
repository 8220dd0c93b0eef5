/**
 * SCAFFOLD (issue 14, replaced within this change): the billing group's routes answer 503 until the
 * billing handler lands. Exists so the route table, the web client and CDK can name the routes.
 */
import { HttpError, httpApi } from './api';

const notYet = (): never => {
  throw new HttpError(503, 'Billing is not available yet.');
};

export const makeHandler = () =>
  httpApi('billing', {
    'POST /api/billing/sync': notYet,
    'POST /api/billing/checkout': notYet,
    'POST /api/billing/portal': notYet,
    'POST /api/billing/webhook': notYet,
  });

export const handlerFor = () => makeHandler();
export const handler = makeHandler();
