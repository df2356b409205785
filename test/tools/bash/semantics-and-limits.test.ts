import { describe, expect, it } from "vitest";
import { interpretCommandResult, lastCommandName } from "../../../src/shell/exit-code/index.js";
import { chooseShell } from "../../../src/tools/bash/shell-session.js";
import { detectBlockedSleep } from "../../../src/tools/bash/sleep-guard.js";
import {
  DEFAULT_TIMEOUT_MS,
  defaultTimeoutMs,
  MAX_TIMEOUT_MS,
  maxTimeoutMs,
} from "../../../src/tools/bash/timeouts.js";

describe("exit-code semantics", () => {
  it.each([
    ["grep foo file.txt", 1, "No matches found"],
    ["cat log | rg -n error", 1, "No matches found"],
    ["LC_ALL=C /usr/bin/grep x y", 1, "No matches found"],
    ["diff a b", 1, "Files differ"],
    ["test -f x", 1, "Condition is false"],
    ["[ -d build ]", 1, "Condition is false"],
    ["find / -name x", 1, "Some directories were inaccessible (partial results)"],
  ])("%s exiting %i means %s, not failure", (command, code, meaning) => {
    expect(interpretCommandResult(command, code)).toEqual({ isError: false, meaning });
  });

  it.each([
    ["grep foo file.txt", 2],
    ["diff a b", 2],
    ["ls missing", 1],
    ["grep x y | wc -l; false", 1],
    ["npm test", 1],
  ])("%s exiting %i is a failure", (command, code) => {
    expect(interpretCommandResult(command, code).isError).toBe(true);
  });

  it("treats exit 0 as success for every command", () => {
    expect(interpretCommandResult("grep a b", 0)).toEqual({ isError: false });
    expect(interpretCommandResult("make", 0)).toEqual({ isError: false });
  });

  it("judges by the last command of a chain or pipeline", () => {
    expect(lastCommandName("cd src && grep -r TODO .")).toBe("grep");
    expect(lastCommandName("grep x y || echo none")).toBe("echo");
    expect(lastCommandName("FOO=1 BAR=2 diff a b # compare")).toBe("diff");
    expect(lastCommandName("")).toBeUndefined();
  });
});

describe("sleep guard", () => {
  it.each([
    "sleep 2",
    "sleep 10 && npm test",
    "sleep 3; ls",
    "sleep 2.5",
    "sleep 5s",
    "sleep 4 || true",
    "sleep 60\necho",
  ])("blocks %j", (command) => {
    expect(detectBlockedSleep(command)).toBeDefined();
  });

  it.each(["sleep 1", "sleep 0.5 && ls", "echo a; sleep 5", "sleep $N", "sleepy 10", "npm test"])(
    "allows %j",
    (command) => {
      expect(detectBlockedSleep(command)).toBeUndefined();
    },
  );
});

describe("timeouts", () => {
  it("defaults to 120 s with a 600 s maximum", () => {
    expect(defaultTimeoutMs({})).toBe(DEFAULT_TIMEOUT_MS);
    expect(maxTimeoutMs({})).toBe(MAX_TIMEOUT_MS);
  });

  it("takes both from the environment and keeps max >= default", () => {
    expect(defaultTimeoutMs({ BASH_DEFAULT_TIMEOUT_MS: "5000" })).toBe(5000);
    expect(maxTimeoutMs({ BASH_MAX_TIMEOUT_MS: "900000" })).toBe(900000);
    expect(maxTimeoutMs({ BASH_DEFAULT_TIMEOUT_MS: "700000", BASH_MAX_TIMEOUT_MS: "300000" })).toBe(700000);
  });

  it("ignores values that are not positive integers", () => {
    expect(defaultTimeoutMs({ BASH_DEFAULT_TIMEOUT_MS: "soon" })).toBe(DEFAULT_TIMEOUT_MS);
    expect(defaultTimeoutMs({ BASH_DEFAULT_TIMEOUT_MS: "-5" })).toBe(DEFAULT_TIMEOUT_MS);
    expect(maxTimeoutMs({ BASH_MAX_TIMEOUT_MS: "1.5" })).toBe(MAX_TIMEOUT_MS);
  });
});

describe("shell choice", () => {
  it("uses the user's shell when it is bash or zsh and exists, else bash", () => {
    expect(chooseShell({ SHELL: "/bin/bash" })).toBe("/bin/bash");
    expect(chooseShell({ SHELL: "/usr/bin/fish" })).toMatch(/bash$/);
    expect(chooseShell({ SHELL: "/nonexistent/zsh" })).toMatch(/bash$/);
    expect(chooseShell({})).toMatch(/bash$/);
  });
});
