/**
 * An adapter built on its first call, from a module loaded then. A Lambda is one ESM file, but esbuild
 * wraps a module reached only through `import()` so that its top level (and the SDK or library it
 * imports) runs when the promise is taken, not when the Lambda starts: a cold start then pays only for
 * what its first request uses (issue 13). Every method of the port must be async (the load is).
 * tests/infra/bundles.test.ts checks, per Lambda, which libraries are left unevaluated at import.
 */

/** The async methods of T (a port's surface; properties and sync methods are not). */
type AsyncMethodName<T> = { [K in keyof T]-?: T[K] extends (...args: never[]) => Promise<unknown> ? K : never }[keyof T];

/** `methods` as given when it names every async method of T; a list missing one does not compile. */
type EveryMethod<T, L extends readonly AsyncMethodName<T>[]> = [Exclude<AsyncMethodName<T>, L[number]>] extends [never] ? L : never;

/**
 * `methods` of the adapter `load` resolves to, as an object that loads it on the first call (once: a
 * failed load is tried again by the next call). Use: `lazyAdapter(() => import('../adapters/x').then((m) => new m.X(...)), ['send'])`.
 */
export function lazyAdapter<T, const L extends readonly AsyncMethodName<T>[]>(load: () => Promise<T>, methods: EveryMethod<T, L>): Pick<T, L[number]> {
  let loading: Promise<T> | undefined;
  const adapter = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  const call =
    (name: L[number]) =>
    async (...args: never[]) => {
      const loaded = await adapter();
      return (loaded[name] as (...args: never[]) => Promise<unknown>).apply(loaded, args);
    };
  return Object.fromEntries(methods.map((name) => [name, call(name)])) as Pick<T, L[number]>;
}
