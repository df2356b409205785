// One retry policy for every provider (the SDKs' own retries are off): exponential backoff with
// jitter, the server's retry-after honoured, and a stream that breaks halfway retried from the
// start behind a `reset` event, so a consumer never glues two attempts' text together.
import { sleepUnlessAborted } from "./abortable-sleep.js";
import { abortedError, isAbortError } from "./errors.js";
import { type ModelRequest, type Provider, ProviderError, type ProviderEvent } from "./types.js";

/**
 * The monotonic clock in ms. Not performance.now(): the global `performance` loads perf_hooks and
 * ten more of Node's modules at first use (~2 ms), on the way to the first request.
 */
const monotonicMs = () => Number(process.hrtime.bigint()) / 1e6;

export interface RetryInfo {
  /** 1 for the first retry. */
  retry: number;
  maxRetries: number;
  delayMs: number;
  error: ProviderError;
}

export interface RetryOptions {
  /** Retries after the first try. Default: WARDEN_MAX_RETRIES, else 8. */
  maxRetries?: number;
  /** First backoff delay; it doubles each retry. Default 500 ms. */
  baseDelayMs?: number;
  /** Ceiling of the computed backoff. Default 32 s. */
  maxDelayMs?: number;
  /** Ceiling on a server's retry-after, so one header cannot stall a session for an hour. Default 60 s. */
  maxRetryAfterMs?: number;
  /**
   * A stream that sends nothing for this long is treated as broken and retried (a stalled
   * connection would otherwise hang the session). Time the consumer spends on an event does not
   * count. Default 5 minutes; 0 turns the watchdog off.
   */
  idleTimeoutMs?: number;
  /** Told before each wait, e.g. to show "overloaded, retrying in 2 s". */
  onRetry?: (info: RetryInfo) => void;
}

const DEFAULT_MAX_RETRIES = 8;

/**
 * Retries for a connection this machine refused (ProviderError.refusedLocally): enough for a local
 * server still starting (~1.5 s with the default backoff), where the usual eight took ~2 minutes
 * to say that nothing listens.
 */
const REFUSED_LOCALLY_MAX_RETRIES = 2;

function wholeNumber(value: number | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a whole number >= 0, got ${value}`);
  return value;
}

function maxRetriesFromEnv(): number | undefined {
  const raw = process.env.WARDEN_MAX_RETRIES;
  if (raw === undefined || raw.trim() === "") return undefined;
  if (!/^\d+$/.test(raw.trim())) throw new RangeError(`WARDEN_MAX_RETRIES must be a whole number >= 0, got "${raw}"`);
  return Number(raw.trim());
}

export function withRetry(provider: Provider, options: RetryOptions = {}): Provider {
  const policy = {
    maxRetries: wholeNumber(options.maxRetries, "maxRetries") ?? maxRetriesFromEnv() ?? DEFAULT_MAX_RETRIES,
    baseDelayMs: wholeNumber(options.baseDelayMs, "baseDelayMs") ?? 500,
    maxDelayMs: wholeNumber(options.maxDelayMs, "maxDelayMs") ?? 32_000,
    maxRetryAfterMs: wholeNumber(options.maxRetryAfterMs, "maxRetryAfterMs") ?? 60_000,
    idleTimeoutMs: wholeNumber(options.idleTimeoutMs, "idleTimeoutMs") ?? 300_000,
    onRetry: options.onRetry,
  };
  return { name: provider.name, stream: (request) => retrying(provider, request, policy) };
}

type Policy = Required<Omit<RetryOptions, "onRetry">> & Pick<RetryOptions, "onRetry">;

async function* retrying(provider: Provider, request: ModelRequest, policy: Policy): AsyncGenerator<ProviderEvent> {
  const { signal } = request;
  const startedAt = Date.now();
  const failures: string[] = [];
  for (let retry = 0; ; retry++) {
    // An abort event that fired before we listened would never reach the attempt's signal.
    if (signal.aborted) throw abortedError();
    let yieldedAny = false;
    let stalled = false;
    let finished = false;
    // Each attempt gets its own signal, so a stalled stream can be cut without aborting the caller.
    const attempt = new AbortController();
    const forwardAbort = () => attempt.abort(signal.reason);
    signal.addEventListener("abort", forwardAbort, { once: true });
    const events = provider.stream({ ...request, signal: attempt.signal })[Symbol.asyncIterator]();
    // The watchdog counts only while we wait on the model, never while the consumer holds an event.
    // One timer per attempt, armed at the first wait and moved on only when it fires early: setting
    // and clearing a timer around every event cost more than the event on a burst of small ones.
    // It keeps the process alive only while we wait, as a timer set for each wait did.
    let waitingSince: number | undefined;
    let watchdog: NodeJS.Timeout | undefined;
    const checkIdle = () => {
      watchdog = undefined;
      // The consumer holds an event: the next wait arms the watchdog again.
      if (waitingSince === undefined) return;
      const left = waitingSince + policy.idleTimeoutMs - monotonicMs();
      if (left > 0) {
        watchdog = setTimeout(checkIdle, left);
        return;
      }
      stalled = true;
      attempt.abort();
    };
    try {
      for (;;) {
        if (policy.idleTimeoutMs > 0) {
          waitingSince = monotonicMs();
          if (watchdog) watchdog.ref();
          else watchdog = setTimeout(checkIdle, policy.idleTimeoutMs);
        }
        let next: IteratorResult<ProviderEvent>;
        try {
          next = await events.next();
        } finally {
          waitingSince = undefined;
          watchdog?.unref();
        }
        if (next.done) break;
        yieldedAny = true;
        yield next.value;
      }
      finished = true;
      return;
    } catch (thrown) {
      finished = true;
      if (signal.aborted) throw abortedError();
      const failure = stalled
        ? new ProviderError(
            `${provider.name}: no data from the model for ${Math.round(policy.idleTimeoutMs / 1000)} s; the stream was treated as broken.`,
            undefined,
            true,
            "stream_cut",
          )
        : thrown;
      if (isAbortError(failure)) throw abortedError();
      if (!(failure instanceof ProviderError)) throw failure;
      if (failure.kind === "aborted" || !failure.retryable) throw failure;
      failures.push(shortDescription(failure));
      const maxRetries = failure.refusedLocally
        ? Math.min(policy.maxRetries, REFUSED_LOCALLY_MAX_RETRIES)
        : policy.maxRetries;
      if (retry >= maxRetries) throw gaveUp(failure, failures, Date.now() - startedAt);

      // The consumer holds part of a turn that will now be sent again from its first byte.
      if (yieldedAny) yield { type: "reset" };
      const delayMs = delayFor(retry + 1, failure, policy);
      policy.onRetry?.({ retry: retry + 1, maxRetries, delayMs, error: failure });
      await sleepUnlessAborted(delayMs, signal);
    } finally {
      clearTimeout(watchdog);
      signal.removeEventListener("abort", forwardAbort);
      // The consumer stopped early (break/return): close the attempt so the SDK drops the request.
      if (!finished) await events.return?.();
    }
  }
}

/** Backoff doubling from baseDelayMs, capped, plus up to 25% jitter so clients do not retry in step. */
export function backoffDelayMs(retry: number, baseDelayMs: number, maxDelayMs: number): number {
  const exponential = Math.min(maxDelayMs, baseDelayMs * 2 ** (retry - 1));
  return Math.round(exponential + Math.random() * 0.25 * exponential);
}

function delayFor(retry: number, error: ProviderError, policy: Policy): number {
  if (error.retryAfterMs !== undefined) return Math.min(error.retryAfterMs, policy.maxRetryAfterMs);
  return backoffDelayMs(retry, policy.baseDelayMs, policy.maxDelayMs);
}

function shortDescription(error: ProviderError): string {
  if (error.status !== undefined) return `HTTP ${error.status}`;
  if (error.kind === "stream_cut") return "stream cut";
  if (error.kind === "network") return "network error";
  return error.kind;
}

function gaveUp(last: ProviderError, failures: string[], elapsedMs: number): ProviderError {
  const tries = failures.length;
  const seconds = (elapsedMs / 1000).toFixed(1);
  const message = `${last.message} — gave up after ${tries} ${tries === 1 ? "try" : "tries"} in ${seconds} s (${failures.join(", ")}).`;
  // Not retryable any more: every retry this error deserved has been spent.
  const failure = new ProviderError(message, last.status, false, last.kind);
  if (last.refusedLocally) failure.refusedLocally = last.refusedLocally;
  return failure;
}
