// Runs the model's JavaScript in QuickJS compiled to WebAssembly (quickjs-emscripten 0.32.0).
// Why this engine: the program runs inside a wasm instance with its own heap, so it has none of
// Node's globals (no `process`, `require`, `fs`, `child_process`, network, timers) and cannot
// reach the host's objects; nothing is compiled at install (isolated-vm builds a native module,
// which this machine class cannot be relied on for); and its runtime takes a memory limit and an
// interrupt handler, so a runaway loop or allocation is stopped rather than trusted to end.
//
// Tools reach the program through one host function, `__warden_call(name, inputJson)`, which
// returns a QuickJS promise (a promise bridge, not the asyncify build: several calls may be in
// flight, and the sync build is half the size). A small prelude wraps it into one async function
// per tool. Only what the program prints comes back.
//
// Loaded only by the REPL tool's first call (dynamic import): never on the start-up path.
import type { QuickJSContext, QuickJSHandle, QuickJSRuntime } from "quickjs-emscripten";

export interface SandboxLimits {
  /** Wall-clock limit for the whole program, tool calls included. */
  timeoutMs: number;
  /** The QuickJS heap limit. */
  memoryBytes: number;
  /** Printed output kept; the rest is dropped with a note. */
  maxOutputChars: number;
}

export interface SandboxTool {
  /** The name the program calls it by (a JavaScript identifier). */
  jsName: string;
  /** The tool's own name (`tools["mcp__github__create_issue"]` works too). */
  name: string;
  /** Its input's JSON Schema, which the program can read with `schemaOf(name)`. */
  schema?: unknown;
}

/** A tool call the program made: resolves with the text of its result, rejects with the reason it failed. */
export type SandboxToolCall = (name: string, input: unknown) => Promise<string>;

export interface SandboxRun {
  output: string;
  /** Set when the program did not finish normally: its uncaught error, the time limit, memory. */
  error?: string;
  /** The value the program returned, printed like console.log would (undefined: none). */
  returned?: string;
  truncated: boolean;
}

type QuickJSModule = Awaited<ReturnType<typeof import("quickjs-emscripten")["newQuickJSWASMModule"]>>;

let modulePromise: Promise<QuickJSModule> | undefined;

/** One wasm module for the process; each run gets its own runtime (heap) inside it. */
async function quickJS(): Promise<QuickJSModule> {
  modulePromise ??= import("quickjs-emscripten").then((q) => q.newQuickJSWASMModule());
  try {
    return await modulePromise;
  } catch (error) {
    modulePromise = undefined;
    throw error;
  }
}

/** Drops the module after a run left it in doubt (a failed dispose), so the next run starts clean. */
function discardModule(): void {
  modulePromise = undefined;
}

const PRELUDE = (tools: readonly SandboxTool[]) => `
"use strict";
(() => {
  const call = globalThis.__warden_call;
  delete globalThis.__warden_call;
  const make = (name) => async (input) => {
    if (input === undefined) input = {};
    if (input === null || typeof input !== "object" || Array.isArray(input))
      throw new TypeError(name + " takes one object argument: its input");
    return call(name, JSON.stringify(input));
  };
  const tools = {};
  for (const [jsName, name] of ${JSON.stringify(tools.map((t) => [t.jsName, t.name]))}) {
    const fn = make(name);
    tools[name] = fn;
    Object.defineProperty(globalThis, jsName, { value: fn, writable: false, enumerable: false });
  }
  Object.defineProperty(globalThis, "tools", { value: Object.freeze(tools), writable: false });
  const schemas = ${JSON.stringify(
    Object.fromEntries(
      tools
        .filter((t) => t.schema !== undefined)
        .flatMap((t) => [
          [t.name, t.schema],
          [t.jsName, t.schema],
        ]),
    ),
  )};
  globalThis.schemaOf = (name) => schemas[name];
})();
`;

/** How a printed value reads: strings as they are, everything else as JSON where it can be. */
const PRINT_SOURCE = `
(() => {
  const out = globalThis.__warden_print;
  delete globalThis.__warden_print;
  const show = (value) => {
    if (typeof value === "string") return value;
    if (value instanceof Error) return String(value);
    if (value === undefined || typeof value === "function" || typeof value === "symbol") return String(value);
    try { return JSON.stringify(value, null, 2) ?? String(value); } catch { return String(value); }
  };
  const print = (...values) => out(values.map(show).join(" "));
  globalThis.print = print;
  globalThis.console = Object.freeze({ log: print, info: print, warn: print, error: print, debug: print });
  globalThis.__warden_show = show;
})();
`;

export async function runInSandbox(
  code: string,
  tools: readonly SandboxTool[],
  callTool: SandboxToolCall,
  limits: SandboxLimits,
  signal: AbortSignal,
): Promise<SandboxRun> {
  const QuickJS = await quickJS();
  const runtime = QuickJS.newRuntime();
  const deadline = Date.now() + limits.timeoutMs;
  let stopped: string | undefined;
  // Checked by QuickJS every few thousand instructions: ends `while (true) {}` and its kin.
  runtime.setInterruptHandler(() => {
    if (signal.aborted) stopped ??= "the call was cancelled";
    else if (Date.now() > deadline) stopped ??= `the program ran longer than ${limits.timeoutMs / 1000} s`;
    return stopped !== undefined;
  });
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(1024 * 1024);
  const vm = runtime.newContext();

  let output = "";
  let truncated = false;
  const print = (text: string) => {
    if (truncated) return;
    const room = limits.maxOutputChars - output.length;
    const line = `${text}\n`;
    if (line.length <= room) output += line;
    else {
      output += line.slice(0, Math.max(0, room));
      truncated = true;
    }
  };
  // Host promises the program is still waiting on: settled (rejected) before the context goes.
  const pending = new Set<{ reject: (error: QuickJSHandle) => void }>();
  let settleWake: (() => void) | undefined;

  try {
    vm.newFunction("__warden_print", (text) => {
      print(vm.getString(text));
    }).consume((fn) => vm.setProp(vm.global, "__warden_print", fn));
    vm.newFunction("__warden_call", (nameHandle, inputHandle) => {
      const name = vm.getString(nameHandle);
      const inputJson = vm.getString(inputHandle);
      const deferred = vm.newPromise();
      const entry = { reject: (error: QuickJSHandle) => deferred.reject(error) };
      pending.add(entry);
      const settle = (apply: () => void) => {
        if (!pending.delete(entry) || !vm.alive) return;
        apply();
        runtime.executePendingJobs();
        settleWake?.();
      };
      Promise.resolve()
        .then(() => callTool(name, JSON.parse(inputJson) as unknown))
        .then(
          (text) => settle(() => vm.newString(text).consume((h) => deferred.resolve(h))),
          (error: unknown) =>
            settle(() =>
              vm.newError(error instanceof Error ? error.message : String(error)).consume((h) => deferred.reject(h)),
            ),
        );
      return deferred.handle;
    }).consume((fn) => vm.setProp(vm.global, "__warden_call", fn));

    for (const source of [PRINT_SOURCE, PRELUDE(tools)]) {
      const setup = vm.evalCode(source, "warden-prelude.js");
      if (setup.error) {
        const reason = dumpError(vm, setup.error);
        setup.error.dispose();
        throw new Error(`the code-mode prelude failed: ${reason}`);
      }
      setup.value.dispose();
    }

    // The program is the body of an async function: `await` works at its top level, `return` too.
    const started = vm.evalCode(`(async () => {\n${code}\n})()`, "program.js");
    if (started.error) {
      const error = stopped ?? dumpError(vm, started.error);
      started.error.dispose();
      return { output, error, truncated };
    }
    const promise = started.value;
    try {
      runtime.executePendingJobs();
      const outcome = await waitForPromise(vm, runtime, promise, deadline, signal, (wake) => {
        settleWake = wake;
      });
      if (outcome.kind === "stopped") return { output, error: stopped ?? outcome.reason, truncated };
      if (outcome.kind === "error") return { output, error: stopped ?? outcome.reason, truncated };
      return { output, truncated, ...(outcome.returned !== undefined ? { returned: outcome.returned } : {}) };
    } finally {
      promise.dispose();
    }
  } finally {
    settleWake = undefined;
    // Calls still running when the program ends (a time-out, an unawaited call) are rejected so
    // their promises do not outlive the context; their late results are dropped (settle checks).
    for (const entry of [...pending]) {
      pending.delete(entry);
      if (vm.alive) vm.newError("the program ended").consume((h) => entry.reject(h));
    }
    try {
      vm.dispose();
      runtime.dispose();
    } catch {
      // QuickJS asserts when objects are still referenced at dispose; the module is not reused.
      discardModule();
    }
  }
}

type Outcome =
  | { kind: "done"; returned?: string }
  | { kind: "error"; reason: string }
  | { kind: "stopped"; reason: string };

/** Polls the program's promise as host calls settle, until it settles, time runs out or the call is cancelled. */
async function waitForPromise(
  vm: QuickJSContext,
  runtime: QuickJSRuntime,
  promise: QuickJSHandle,
  deadline: number,
  signal: AbortSignal,
  setWake: (wake: () => void) => void,
): Promise<Outcome> {
  for (;;) {
    const state = vm.getPromiseState(promise);
    if (state.type === "fulfilled") {
      const value = state.value;
      try {
        return { kind: "done", returned: shown(vm, value) };
      } finally {
        value.dispose();
      }
    }
    if (state.type === "rejected") {
      const reason = dumpError(vm, state.error);
      state.error.dispose();
      return { kind: "error", reason };
    }
    if (signal.aborted) return { kind: "stopped", reason: "the call was cancelled" };
    const left = deadline - Date.now();
    if (left <= 0) return { kind: "stopped", reason: "the program ran past its time limit" };
    // Wait for a host call to settle (it runs the jobs it unblocks), the deadline, or an abort.
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, left);
      const onAbort = () => done();
      signal.addEventListener("abort", onAbort, { once: true });
      function done() {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        resolve();
      }
      setWake(done);
    });
    runtime.executePendingJobs();
  }
}

/** The returned value as print would show it; undefined for `undefined`. */
function shown(vm: QuickJSContext, value: QuickJSHandle): string | undefined {
  if (vm.typeof(value) === "undefined") return undefined;
  const show = vm.getProp(vm.global, "__warden_show");
  try {
    const result = vm.callFunction(show, vm.undefined, value);
    if (result.error) {
      result.error.dispose();
      return "[a value that cannot be shown]";
    }
    return result.value.consume((h) => vm.getString(h));
  } finally {
    show.dispose();
  }
}

/** QuickJS throws `null` when it cannot even allocate the error: the memory limit was reached. */
const OUT_OF_MEMORY = "the program ran out of memory (its heap limit was reached)";

function dumpError(vm: QuickJSContext, handle: QuickJSHandle): string {
  const dumped = vm.dump(handle) as unknown;
  if (dumped === null) return OUT_OF_MEMORY;
  if (dumped && typeof dumped === "object") {
    const { name, message } = dumped as { name?: unknown; message?: unknown };
    if (typeof message === "string")
      return typeof name === "string" && name !== "Error" ? `${name}: ${message}` : message;
  }
  return String(dumped);
}
