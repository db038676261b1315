/**
 * A value now or later. The stores behind the API answer synchronously when they are in this
 * process (SQLite, the in-memory limiter) and with a promise when they are over the network
 * (PostgreSQL, Redis); the request path allocates a promise only in the second case.
 */
export type MaybePromise<T> = T | Promise<T>;

/** `f` of the value: at once when it is already there, once it is when it is a promise. */
export function after<T, U>(value: MaybePromise<T>, f: (v: T) => U): MaybePromise<U> {
  return value instanceof Promise ? value.then(f) : f(value);
}
