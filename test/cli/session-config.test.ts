import { describe, expect, it } from "vitest";
import { parseSessionArgs, UsageError } from "../../src/cli/flags/session-config.js";

const parse = (...argv: string[]) => parseSessionArgs(argv, "/base");

describe("session command line", () => {
  it("takes the prompt from the words that are not options", () => {
    const config = parse("-p", "explain", "this", "--max-turns", "3", "--output-format=json");
    expect(config).toMatchObject({
      print: true,
      prompt: "explain this",
      maxTurns: 3,
      outputFormat: "json",
      cwd: "/base",
    });
    expect(parse("-p", "--", "--not-an-option").prompt).toBe("--not-an-option");
  });

  it("reads rule lists as Claude Code does: following words, commas, and spaces outside parentheses", () => {
    const config = parse("--allowedTools", "Read,Glob", "Bash(git diff:*, git log:*)", "-p", "go");
    expect(config.allowedTools).toEqual(["Read", "Glob", "Bash(git diff:*, git log:*)"]);
    expect(config.prompt).toBe("go");
    expect(parse("--disallowed-tools=WebFetch Bash").disallowedTools).toEqual(["WebFetch", "Bash"]);
  });

  it("keeps --add-dir paths and --mcp-config JSON whole", () => {
    const json = '{"mcpServers": {"a": {"command": "x", "args": ["1", "2"]}}}';
    const config = parse("--add-dir", "my dir,v2", "../other", "--mcp-config", json, "-p", "go");
    expect(config.addDirs).toEqual(["/base/my dir,v2", "/other"]);
    expect(config.mcpConfig).toEqual([json]);
  });

  it("passes the permission flags on", () => {
    const config = parse("--permission-mode", "acceptEdits", "--dangerously-skip-permissions", "--settings", "s.json");
    expect(config).toMatchObject({
      permissionMode: "acceptEdits",
      dangerouslySkipPermissions: true,
      settings: "s.json",
    });
  });

  it("reads the thinking flags as the Agent SDK passes them", () => {
    expect(parse("--max-thinking-tokens", "2048").thinking).toEqual({ type: "enabled", budgetTokens: 2048 });
    expect(parse("--max-thinking-tokens=0").thinking).toEqual({ type: "disabled" });
    expect(parse("--thinking=disabled").thinking).toEqual({ type: "disabled" });
    expect(parse("--thinking=adaptive", "--thinking-display", "omitted").thinking).toEqual({
      type: "adaptive",
      display: "omitted",
    });
    expect(parse("--thinking", "enabled").thinking).toEqual({ type: "enabled", budgetTokens: 10_000 });
    expect(parse("-p", "x").thinking).toBeUndefined();
  });

  it("reads where teammates run", () => {
    expect(parse("--teammate-mode", "process").teammateMode).toBe("process");
    expect(parse("--teammate-mode=in-process").teammateMode).toBe("in-process");
    expect(parse("-p", "x").teammateMode).toBeUndefined();
  });

  it("-r without an id, as Claude Code users type it, asks for the session picker (not a session named after the next flag)", () => {
    expect(parse("-r").pickResume).toBe(true);
    const config = parse("-r", "--model", "replay:f.jsonl");
    expect(config).toMatchObject({ pickResume: true, model: "replay:f.jsonl" });
    expect(config.resume).toBeUndefined();
    expect(parse("-r", "abc").pickResume).toBe(false);
  });

  it("still takes a value that starts with a dash but names no option", () => {
    expect(parse("--append-system-prompt", "- keep it short").appendSystemPrompt).toBe("- keep it short");
  });

  it.each([
    [["--max-thinking-tokens", "lots"], "--max-thinking-tokens must be a whole number >= 0"],
    [["--thinking", "deep"], "--thinking must be one of adaptive, enabled, disabled"],
    [["--thinking-display", "full"], "--thinking-display must be one of summarized, omitted"],
    [["--frobnicate"], "unknown option --frobnicate"],
    [["--model"], "--model needs a value"],
    // An option where the value should be is a missing value, not a value: not "session --model".
    [["-p", "x", "-r", "--model", "replay:f.jsonl"], "--resume needs a session id with -p"],
    [["--continue", "-r"], "use either --resume or --continue"],
    [["--append-system-prompt", "-c"], "--append-system-prompt needs a value"],
    [["--output-format", "xml"], "--output-format must be text, json or stream-json"],
    [["--max-turns", "2.5"], "--max-turns must be a whole number >= 1"],
    [["--permission-mode", "yolo"], "--permission-mode must be one of"],
    [["--resume", "abc", "--continue"], "use either --resume or --continue"],
    [["--allowedTools"], "--allowedTools needs at least one value"],
    [["--verbose=yes"], "--verbose takes no value"],
    [["--teammate-mode", "panes"], "--teammate-mode must be in-process, process or tmux"],
  ])("rejects %j with a clear message", (argv, message) => {
    expect(() => parse(...argv)).toThrow(UsageError);
    expect(() => parse(...argv)).toThrow(message);
  });
});
