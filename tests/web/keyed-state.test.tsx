import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useKeyedState } from '../../web/src/lib/useKeyedState';

describe('useKeyedState', () => {
  it('reads as the fallback until a value is set for the current key, and again when the key changes', () => {
    const { result, rerender } = renderHook(({ key }) => useKeyedState(key, 'loading'), { initialProps: { key: 'a#0' } });
    expect(result.current[0]).toBe('loading');

    act(() => result.current[1]('a#0', 'ready a'));
    expect(result.current[0]).toBe('ready a');

    // A retry or another id: loading again, without anyone resetting it.
    rerender({ key: 'a#1' });
    expect(result.current[0]).toBe('loading');

    // An answer for an older key is not shown for the current one.
    act(() => result.current[1]('a#0', 'late a'));
    expect(result.current[0]).toBe('loading');

    act(() => result.current[1]('a#1', 'ready again'));
    expect(result.current[0]).toBe('ready again');
  });

  it('update changes the value held and keeps its key', () => {
    const { result, rerender } = renderHook(({ key }) => useKeyedState(key, 0), { initialProps: { key: 'x' } });
    act(() => result.current[2]((n) => n + 1));
    expect(result.current[0]).toBe(0); // nothing loaded yet: nothing to update

    act(() => result.current[1]('x', 10));
    act(() => result.current[2]((n) => n + 1));
    expect(result.current[0]).toBe(11);

    rerender({ key: 'y' });
    act(() => result.current[2]((n) => n + 1));
    expect(result.current[0]).toBe(0);
  });
});
