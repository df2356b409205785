// The error a query's iteration ends with once its options.abortController is aborted, as the
// Agent SDK's `AbortError` (a program catching it by class runs unchanged on Warden).
export class AbortError extends Error {
  override name = "AbortError";
}
