import type { ClientLimit } from '../../lambdas/http/clientLimit';

/** No per-client limit: for tests of other things whose requests all come from one address. */
export const noClientLimit: ClientLimit = () => Promise.resolve();
