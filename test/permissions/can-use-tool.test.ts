// createCanUseTool: ask handlers, dontAsk, "don't ask again", hook decisions, auto mode and its
// circuit breaker, denial tracking and the decision records.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadSettings } from "../../src/config/settings.js";
import type { AutoModeClassifier } from "../../src/permissions/classifier/index.js";
import { createModelClassifier, parseVerdict } from "../../src/permissions/classifier/index.js";
import {
  type AskHandler,
  type AskRequest,
  createCanUseTool,
  createHeadlessAskHandler,
  type PermissionDecisionRecord,
} from "../../src/permissions/engine/index.js";
import { isDangerousAllowRule, rulesFromStrings } from "../../src/permissions/rules/index.js";
import { buildPermissionContext } from "../../src/permissions/settings/index.js";
import type { Provider } from "../../src/providers/types.js";
import type {
  PermissionMode,
  PermissionResult,
  PreToolUseHookDecision,
  ToolPermissionContext,
} from "../../src/tool/permission-types.js";
import type { AnyTool, ToolUseContext } from "../../src/tool/types.js";
import { WriteTool } from "../../src/tools/write/tool.js";
import { isolateEnvironment, scriptedTool, tempDir, toolContext } from "./helpers.js";

isolateEnvironment();
const passthrough: PermissionResult = { behavior: "passthrough", message: "T needs permission." };

function permissionContext(
  cwd: string,
  mode: PermissionMode = "default",
  rules: { allow?: string[]; deny?: string[]; ask?: string[] } = {},
): ToolPermissionContext {
  return {
    mode,
    workingDirectories: [cwd],
    rules: rulesFromStrings(rules, "session", cwd, "test").rules,
    isBypassPermissionsModeAvailable: mode === "bypassPermissions",
  };
}

function parseRules(allow: string[]) {
  return rulesFromStrings({ allow }, "session", "/", "test").rules.allow;
}

function recordingHandler(answer: Awaited<ReturnType<AskHandler>>): AskHandler & { asked: AskRequest[] } {
  const asked: AskRequest[] = [];
  const handler = async (request: AskRequest) => {
    asked.push(request);
    return answer;
  };
  return Object.assign(handler, { asked });
}

async function call(
  canUseTool: ReturnType<typeof createCanUseTool>,
  tool: AnyTool,
  context: ToolUseContext,
  input = {},
  preToolUseDecision?: PreToolUseHookDecision,
) {
  return canUseTool(tool, input, context, undefined, `toolu_${Math.random().toString(36).slice(2)}`, {
    preToolUseDecision,
  });
}

describe("asking", () => {
  it("headless: denies with a message saying it was not allowed, why, and what would allow it", async () => {
    const cwd = tempDir();
    const canUseTool = createCanUseTool({ askHandler: createHeadlessAskHandler() });
    const decision = await call(canUseTool, scriptedTool("T", passthrough), toolContext(cwd, permissionContext(cwd)));
    expect(decision.behavior).toBe("deny");
    if (decision.behavior !== "deny") return;
    expect(decision.message).toContain("Permission to use T was denied");
    expect(decision.message).toContain("nobody can approve it");
    expect(decision.message).toContain("T needs permission.");
    expect(decision.message).toContain('--allowedTools "T"');
  });

  it("headless: advice to add a rule to the folder's settings names the trust they need", async () => {
    const cwd = tempDir();
    const canUseTool = createCanUseTool({ askHandler: createHeadlessAskHandler({ settingsFolder: cwd }) });
    const decision = await call(canUseTool, scriptedTool("T", passthrough), toolContext(cwd, permissionContext(cwd)));
    expect(decision).toMatchObject({
      behavior: "deny",
      message: expect.stringContaining(
        `add "T" to permissions.allow in .warden/settings.json (or .claude/settings.json) (then \`warden trust ${cwd}\`: a folder's own allow rules apply only once it is trusted)`,
      ),
    });
  });

  it("headless: a safety check's message says no rule can pre-approve it", async () => {
    const cwd = tempDir();
    const canUseTool = createCanUseTool({ askHandler: createHeadlessAskHandler() });
    const context = toolContext(cwd, permissionContext(cwd, "bypassPermissions"));
    const decision = await call(canUseTool, WriteTool, context, {
      file_path: join(cwd, ".git", "config"),
      content: "x",
    });
    expect(decision).toMatchObject({
      behavior: "deny",
      message: expect.stringContaining("no rule or mode can pre-approve"),
    });
  });

  it("a library callback settles the ask, and sees the reason and suggestions", async () => {
    const cwd = tempDir();
    const handler = recordingHandler({ behavior: "allow", updatedInput: { value: "changed" } });
    const canUseTool = createCanUseTool({ askHandler: handler });
    const decision = await call(canUseTool, scriptedTool("T", passthrough), toolContext(cwd, permissionContext(cwd)));
    expect(decision).toMatchObject({ behavior: "allow", updatedInput: { value: "changed" } });
    expect(handler.asked[0]?.ask.suggestions).toEqual([
      { type: "addRules", behavior: "allow", rules: [{ toolName: "T" }], destination: "localSettings" },
    ]);
  });

  it("dontAsk: the handler is never called, every ask is a deny", async () => {
    const cwd = tempDir();
    const handler = recordingHandler({ behavior: "allow" });
    const canUseTool = createCanUseTool({ askHandler: handler });
    const decision = await call(
      canUseTool,
      scriptedTool("T", passthrough),
      toolContext(cwd, permissionContext(cwd, "dontAsk")),
    );
    expect(decision).toMatchObject({ behavior: "deny", decisionReason: { type: "mode", mode: "dontAsk" } });
    expect(handler.asked).toHaveLength(0);
  });

  it("records every decision and tracks denials", async () => {
    const cwd = tempDir();
    const records: PermissionDecisionRecord[] = [];
    const canUseTool = createCanUseTool({
      askHandler: createHeadlessAskHandler(),
      recordDecision: (r) => records.push(r),
    });
    const context = toolContext(cwd, permissionContext(cwd, "default", { allow: ["Ok"] }));
    await call(canUseTool, scriptedTool("Ok", passthrough), context, { value: "1" });
    await call(canUseTool, scriptedTool("No", passthrough), context, { value: "2" });
    expect(records.map((r) => [r.toolName, r.behavior, r.decidedBy])).toEqual([
      ["Ok", "allow", "engine"],
      ["No", "deny", "askHandler"],
    ]);
    expect(records[0]?.reason).toContain("Ok (allow rule from this session)");
    expect(canUseTool.denials.denials.map((d) => d.toolName)).toEqual(["No"]);
  });

  it("records what was asked, and why, beside the answer", async () => {
    const cwd = tempDir();
    const records: PermissionDecisionRecord[] = [];
    const canUseTool = createCanUseTool({
      askHandler: recordingHandler({ behavior: "allow" }),
      recordDecision: (r) => records.push(r),
    });
    const context = toolContext(cwd, permissionContext(cwd, "default", { ask: ["Deploy"] }));
    await call(canUseTool, scriptedTool("Deploy", passthrough), context, { value: "prod" });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ behavior: "allow", decidedBy: "askHandler", reason: "approved when asked" });
    expect(records[0]?.asked?.reason).toContain("Deploy (ask rule");
  });
});

describe("don't ask again", () => {
  it("applies the answer at once, writes it to the chosen settings file, and a new session reloads it", async () => {
    const cwd = tempDir();
    const handler = recordingHandler({
      behavior: "allow",
      updates: [
        {
          type: "addRules",
          behavior: "allow",
          rules: [{ toolName: "T", ruleContent: "npm run:*" }, { toolName: "T" }],
          destination: "localSettings",
        },
      ],
    });
    const canUseTool = createCanUseTool({ askHandler: handler });
    const context = toolContext(cwd, permissionContext(cwd));
    const tool = scriptedTool("T", passthrough);
    expect((await call(canUseTool, tool, context)).behavior).toBe("allow");
    expect((await call(canUseTool, tool, context)).behavior).toBe("allow");
    expect(handler.asked).toHaveLength(1);
    expect(context.getAppState().toolPermissionContext.rules.allow.map((r) => r.source)).toEqual([
      "localSettings",
      "localSettings",
    ]);

    const reloaded = buildPermissionContext({ cwd, settings: loadSettings({ cwd }) }).context;
    expect(reloaded.rules.allow).toMatchObject([
      {
        source: "localSettings",
        value: { toolName: "T", ruleContent: "npm run:*" },
        file: join(cwd, ".warden", "settings.local.json"),
      },
      { source: "localSettings", value: { toolName: "T" } },
    ]);
  });

  it("keeps session answers in memory only", async () => {
    const cwd = tempDir();
    const canUseTool = createCanUseTool({
      askHandler: async () => ({
        behavior: "allow",
        updates: [{ type: "addRules", behavior: "allow", rules: [{ toolName: "T" }], destination: "session" }],
      }),
    });
    const context = toolContext(cwd, permissionContext(cwd));
    await call(canUseTool, scriptedTool("T", passthrough), context);
    expect(context.getAppState().toolPermissionContext.rules.allow[0]?.source).toBe("session");
    expect(loadSettings({ cwd }).files.filter((f) => f.path.startsWith(cwd))).toEqual([]);
  });
});

describe("hook decisions", () => {
  it("a hook's allow skips the prompt but not a deny rule or a safety check", async () => {
    const cwd = tempDir();
    const handler = recordingHandler({ behavior: "deny", message: "no" });
    const canUseTool = createCanUseTool({ askHandler: handler });
    const hook = { behavior: "allow" as const, reason: "trusted", hooks: ["check.sh"] };
    const allowed = await call(
      canUseTool,
      scriptedTool("T", passthrough),
      toolContext(cwd, permissionContext(cwd)),
      {},
      hook,
    );
    expect(allowed).toMatchObject({ behavior: "allow", decisionReason: { type: "hook", hookName: "check.sh" } });

    const denied = await call(
      canUseTool,
      scriptedTool("T", passthrough),
      toolContext(cwd, permissionContext(cwd, "default", { deny: ["T"] })),
      {},
      hook,
    );
    expect(denied).toMatchObject({ behavior: "deny", decisionReason: { type: "rule" } });

    const safety: PermissionResult = {
      behavior: "ask",
      message: "protected",
      decisionReason: { type: "safetyCheck", reason: ".git" },
    };
    const asked = await call(canUseTool, scriptedTool("T", safety), toolContext(cwd, permissionContext(cwd)), {}, hook);
    expect(asked.behavior).toBe("deny");
    expect(handler.asked.map((a) => a.ask.decisionReason?.type)).toEqual(["safetyCheck"]);
  });

  it("dontAsk: a hook's ask, or a safety ask after a hook's allow, is denied without asking", async () => {
    const cwd = tempDir();
    const handler = recordingHandler({ behavior: "allow" });
    const canUseTool = createCanUseTool({ askHandler: handler });
    const context = toolContext(cwd, permissionContext(cwd, "dontAsk"));
    const asked = await call(
      canUseTool,
      scriptedTool("T", passthrough),
      context,
      {},
      { behavior: "ask", hooks: ["h"] },
    );
    expect(asked).toMatchObject({ behavior: "deny", decisionReason: { type: "mode", mode: "dontAsk" } });
    const safety: PermissionResult = {
      behavior: "ask",
      message: "protected",
      decisionReason: { type: "safetyCheck", reason: ".git" },
    };
    const allowed = await call(canUseTool, scriptedTool("T", safety), context, {}, { behavior: "allow", hooks: ["h"] });
    expect(allowed).toMatchObject({ behavior: "deny", decisionReason: { type: "mode", mode: "dontAsk" } });
    expect(handler.asked).toHaveLength(0);
  });

  it("a hook's ask goes to the handler even when a rule allows the tool", async () => {
    const cwd = tempDir();
    const handler = recordingHandler({ behavior: "allow" });
    const canUseTool = createCanUseTool({ askHandler: handler });
    const decision = await call(
      canUseTool,
      scriptedTool("T", passthrough),
      toolContext(cwd, permissionContext(cwd, "default", { allow: ["T"] })),
      {},
      { behavior: "ask", reason: "look first", hooks: ["h"] },
    );
    expect(decision.behavior).toBe("allow");
    expect(handler.asked[0]?.ask).toMatchObject({ decisionReason: { type: "hook", reason: "look first" } });
  });
});

function scriptedClassifier(verdicts: Array<boolean | Error>): AutoModeClassifier & { seen: string[] } {
  const seen: string[] = [];
  return {
    name: "scripted",
    seen,
    async classify(request) {
      seen.push(request.action);
      const next = verdicts.shift() ?? true;
      if (next instanceof Error) throw next;
      return { block: next, reason: next ? "looks risky" : "looks fine" };
    },
  };
}

describe("auto mode", () => {
  it("allows auto-mode safe tools and in-project edits without calling the classifier", async () => {
    const cwd = tempDir();
    const classifier = scriptedClassifier([]);
    const records: PermissionDecisionRecord[] = [];
    const canUseTool = createCanUseTool({
      askHandler: createHeadlessAskHandler(),
      classifier,
      recordDecision: (r) => records.push(r),
    });
    const context = toolContext(cwd, permissionContext(cwd, "auto"));
    expect(await call(canUseTool, scriptedTool("Looker", passthrough, { autoModeSafe: true }), context)).toMatchObject({
      behavior: "allow",
      decisionReason: { type: "classifier", classifier: "allowlist" },
    });
    // The trait decides, not the name: a tool called Grep without it goes to the classifier.
    await call(canUseTool, scriptedTool("Grep", passthrough), context, { value: "x" });
    expect(classifier.seen).toEqual(["Grep x"]);
    classifier.seen.length = 0;
    expect(await call(canUseTool, WriteTool, context, { file_path: join(cwd, "a.txt"), content: "x" })).toMatchObject({
      behavior: "allow",
      decisionReason: { type: "mode", mode: "acceptEdits" },
    });
    expect(classifier.seen).toEqual([]);
    expect(records.map((r) => r.decidedBy)).toEqual(["autoMode", "autoMode", "autoMode"]);
  });

  it("lets the classifier allow or block, and never shows it a safety-check ask", async () => {
    const cwd = tempDir();
    const classifier = scriptedClassifier([false, true]);
    const handler = recordingHandler({ behavior: "deny" });
    const canUseTool = createCanUseTool({ askHandler: handler, classifier });
    const context = toolContext(cwd, permissionContext(cwd, "auto"));
    expect((await call(canUseTool, scriptedTool("Deploy", passthrough), context, { value: "staging" })).behavior).toBe(
      "allow",
    );
    expect(await call(canUseTool, scriptedTool("Deploy", passthrough), context, { value: "prod" })).toMatchObject({
      behavior: "deny",
      decisionReason: { type: "classifier", classifier: "scripted", reason: "looks risky" },
    });
    await call(canUseTool, WriteTool, context, { file_path: join(cwd, ".git", "hooks", "pre-commit"), content: "x" });
    expect(classifier.seen).toEqual(["Deploy staging", "Deploy prod"]);
    expect(handler.asked.map((a) => a.ask.decisionReason?.type)).toEqual(["safetyCheck"]);
  });

  it("sets aside allow rules that would approve arbitrary code, so the classifier sees those calls", async () => {
    const cwd = tempDir();
    const classifier = scriptedClassifier([true]);
    const canUseTool = createCanUseTool({ askHandler: createHeadlessAskHandler(), classifier });
    const rules = { allow: ["Bash", "Bash(python:*)", "Bash(npm test:*)"] };
    const manual = toolContext(cwd, permissionContext(cwd, "default", rules));
    expect(
      (await call(canUseTool, scriptedTool("Bash", passthrough), manual, { value: "python -c ..." })).behavior,
    ).toBe("allow");
    const auto = toolContext(cwd, permissionContext(cwd, "auto", rules));
    expect(await call(canUseTool, scriptedTool("Bash", passthrough), auto, { value: "python -c ..." })).toMatchObject({
      behavior: "deny",
      decisionReason: { type: "classifier" },
    });
    expect(classifier.seen).toEqual(["Bash python -c ..."]);
    const kept = parseRules(rules.allow).filter((rule) => !isDangerousAllowRule(rule));
    expect(kept.map((r) => r.value.ruleContent)).toEqual(["npm test:*"]);
    expect(isDangerousAllowRule(parseRules(["Bash(/usr/bin/env:*)"])[0]!)).toBe(true);
  });

  it("falls back to asking when the classifier fails", async () => {
    const cwd = tempDir();
    const handler = recordingHandler({ behavior: "allow" });
    const canUseTool = createCanUseTool({
      askHandler: handler,
      classifier: scriptedClassifier([new Error("model down")]),
    });
    const decision = await call(
      canUseTool,
      scriptedTool("Deploy", passthrough),
      toolContext(cwd, permissionContext(cwd, "auto")),
    );
    expect(decision.behavior).toBe("allow");
    expect(handler.asked[0]?.note).toContain("model down");
  });

  it("trips after 3 refusals in a row: a person decides from then on", async () => {
    const cwd = tempDir();
    const classifier = scriptedClassifier([true, true, true, false]);
    const handler = recordingHandler({ behavior: "allow" });
    const canUseTool = createCanUseTool({ askHandler: handler, classifier });
    const context = {
      ...toolContext(cwd, permissionContext(cwd, "auto")),
      options: { ...toolContext(cwd, permissionContext(cwd)).options, isNonInteractive: false },
    };
    for (let i = 0; i < 3; i++)
      expect((await call(canUseTool, scriptedTool("Deploy", passthrough), context)).behavior).toBe("deny");
    expect(handler.asked).toHaveLength(0);
    expect((await call(canUseTool, scriptedTool("Deploy", passthrough), context)).behavior).toBe("allow");
    expect(classifier.seen).toHaveLength(3);
    expect(handler.asked[0]?.note).toContain("3 refusals in a row");
  });

  it("trips after 20 refusals in all, even with allows in between", async () => {
    const cwd = tempDir();
    const verdicts = Array.from({ length: 40 }, (_, i) => i % 2 === 0);
    const classifier = scriptedClassifier(verdicts);
    const handler = recordingHandler({ behavior: "deny" });
    const canUseTool = createCanUseTool({ askHandler: handler, classifier });
    const context = {
      ...toolContext(cwd, permissionContext(cwd, "auto")),
      options: { ...toolContext(cwd, permissionContext(cwd)).options, isNonInteractive: false },
    };
    for (let i = 0; i < 39; i++) await call(canUseTool, scriptedTool("Deploy", passthrough), context);
    expect(canUseTool.denials.classifierDenials.total).toBe(20);
    expect(classifier.seen.length).toBe(39);
    await call(canUseTool, scriptedTool("Deploy", passthrough), context);
    expect(classifier.seen.length).toBe(39);
    expect(handler.asked).toHaveLength(1);
  });

  it("headless: a tripped breaker aborts the run instead of looping on refusals", async () => {
    const cwd = tempDir();
    const canUseTool = createCanUseTool({
      askHandler: createHeadlessAskHandler(),
      classifier: scriptedClassifier([true, true, true]),
    });
    const context = toolContext(cwd, permissionContext(cwd, "auto"));
    for (let i = 0; i < 3; i++) await call(canUseTool, scriptedTool("Deploy", passthrough), context);
    expect(context.abortController.signal.aborted).toBe(false);
    const decision = await call(canUseTool, scriptedTool("Deploy", passthrough), context);
    expect(decision).toMatchObject({ behavior: "deny", message: expect.stringContaining("Auto mode stopped") });
    expect(context.abortController.signal.aborted).toBe(true);
  });
});

describe("the model classifier", () => {
  function providerSaying(text: string): Provider & { requests: string[] } {
    const requests: string[] = [];
    return {
      name: "scripted",
      requests,
      async *stream(request) {
        requests.push(JSON.stringify(request.messages));
        for (const piece of text.match(/.{1,7}/gs) ?? []) yield { type: "text_delta", text: piece };
        yield { type: "stop", stopReason: "end_turn" };
      },
    };
  }

  it("sends only the call and reads the verdict", async () => {
    const provider = providerSaying("<block>no</block><reason>A test run.</reason>");
    const classifier = createModelClassifier({ provider, model: "small" });
    const verdict = await classifier.classify(
      { toolName: "Bash", action: "npm test", input: {} },
      new AbortController().signal,
    );
    expect(verdict).toEqual({ block: false, reason: "A test run." });
    expect(provider.requests[0]).toContain("npm test");
  });

  it("blocks on anything but a clear answer", () => {
    expect(parseVerdict("<block>yes</block>").block).toBe(true);
    expect(parseVerdict("I think it is fine").block).toBe(true);
    expect(parseVerdict("<block> NO </block>").block).toBe(false);
  });
});
