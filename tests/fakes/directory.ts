import type { DirectoryStore } from '../../lambdas/ports';

/** For handler tests that never reach the directory: any call fails the test loudly. */
export function unusedDirectory(): DirectoryStore {
  const fail = (): never => {
    throw new Error('this test does not expect a directory call');
  };
  return { list: fail, addToContacts: fail, upsertByEmail: fail };
}
