/** lazyAdapter: a port whose adapter module loads on the first call, once, and again after a failed load. */
import { describe, expect, it } from 'vitest';
import { lazyAdapter } from '../../lambdas/composition/lazy';
import type { SecretBox } from '../../lambdas/ports';

/** A secret box that says which call it answered, counting how often it was built. */
function counted() {
  const loads = { count: 0 };
  const load = () => {
    loads.count += 1;
    const box: SecretBox = {
      seal: (plaintext, context) => Promise.resolve(`sealed:${plaintext}:${context.userId ?? ''}`),
      open: (sealed) => Promise.resolve(`opened:${sealed}`),
    };
    return Promise.resolve(box);
  };
  return { loads, load };
}

describe('lazyAdapter', () => {
  it('loads nothing until a method is called, then answers with the loaded adapter', async () => {
    const { loads, load } = counted();
    const box: SecretBox = lazyAdapter(load, ['seal', 'open']);
    expect(loads.count).toBe(0);
    await expect(box.seal('token', { userId: 'u1' })).resolves.toBe('sealed:token:u1');
    await expect(box.open('x', { userId: 'u1' })).resolves.toBe('opened:x');
    expect(loads.count).toBe(1);
  });

  it('loads once when the first calls come together', async () => {
    const { loads, load } = counted();
    const box: SecretBox = lazyAdapter(load, ['seal', 'open']);
    await Promise.all([box.seal('a', {}), box.open('b', {}), box.seal('c', {})]);
    expect(loads.count).toBe(1);
  });

  it('tries the load again on the next call after a failed one, and passes the failure on', async () => {
    let attempts = 0;
    const box = lazyAdapter(() => {
      attempts += 1;
      return attempts === 1 ? Promise.reject(new Error('module not loaded')) : counted().load();
    }, ['seal', 'open']);
    await expect(box.open('x', {})).rejects.toThrow('module not loaded');
    await expect(box.open('x', {})).resolves.toBe('opened:x');
    expect(attempts).toBe(2);
  });

  it('calls a class adapter as its own method (this is the adapter)', async () => {
    class Greeter {
      private readonly greeting = 'hello';
      greet(name: string): Promise<string> {
        return Promise.resolve(`${this.greeting} ${name}`);
      }
    }
    const greeter = lazyAdapter(() => Promise.resolve(new Greeter()), ['greet']);
    await expect(greeter.greet('Ann')).resolves.toBe('hello Ann');
  });
});
