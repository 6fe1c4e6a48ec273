// The hot paths return a value when they have it and a promise only when they must wait: each
// await costs a request a microtask and an async frame (docs/PERFORMANCE.md). Not named `then`:
// a module exporting `then` is a thenable, and `await import()` of it would call it.

/** `fn(value)` now, or once `value` resolves: the common path allocates no promise. */
export const after = <T, R>(value: T | Promise<T>, fn: (v: T) => R | Promise<R>): R | Promise<R> =>
  value instanceof Promise ? value.then(fn) : fn(value)
