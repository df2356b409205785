// A wait that the request's abort signal cuts short: the replay provider's scripted delays and
// the retry back-off both sit inside a model request, and Ctrl+C must not wait them out.
import { abortedError } from "./errors.js";

/** Resolves after `ms`, or rejects with the aborted ProviderError as soon as `signal` aborts. */
export function sleepUnlessAborted(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(abortedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
