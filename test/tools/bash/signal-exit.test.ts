import { describe, expect, it } from "vitest";
import { shellExitStatus } from "../../../src/tools/bash/signal-exit.js";

describe("Bash: exit status of a command that died of a signal", () => {
  it("follows bash: 128 + the signal number, with a note naming the signal", () => {
    expect(shellExitStatus({ exitCode: null, signal: "SIGSEGV", stoppedByUs: false })).toEqual({
      exitCode: 139,
      note: "The command was ended by signal SIGSEGV.",
    });
  });

  it("keeps a signal we sent ourselves (timeout, abort) as no exit code", () => {
    expect(shellExitStatus({ exitCode: null, signal: "SIGTERM", stoppedByUs: true })).toEqual({ exitCode: null });
  });

  it("passes an ordinary exit code through", () => {
    expect(shellExitStatus({ exitCode: 3, signal: null, stoppedByUs: false })).toEqual({ exitCode: 3 });
  });
});
