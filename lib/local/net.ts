import { createServer } from 'node:net';
import { LocalStackError } from './errors';

export const LOOPBACK = '127.0.0.1';

/** Resolves when `port` can be bound on 127.0.0.1, rejects with a LocalStackError naming `what` and `hint`. */
export async function assertPortFree(port: number, what: string, hint: string): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(new LocalStackError(`Port ${port} (${what}) is already in use. ${hint}`));
      } else if (error.code === 'EACCES') {
        reject(new LocalStackError(`Port ${port} (${what}) cannot be opened by this user. ${hint}`));
      } else {
        reject(error);
      }
    });
    probe.listen({ port, host: LOOPBACK, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** Polls `check` until it resolves true or `timeoutMs` passes. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, intervalMs = 50): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if (await check()) return true;
    } catch {
      // not ready yet
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  return false;
}
