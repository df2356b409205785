// The LSP tool against a small TypeScript project and the real typescript-language-server: each
// of the nine operations, the Read deny rules, the size limit, and no server left when it closes.
import { mkdirSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseLspServers } from "../../../src/lsp/servers.js";
import { LspService } from "../../../src/lsp/service.js";
import { createToolUseContext } from "../../../src/tool/context.js";
import { emptyPermissionContext, type PermissionRule } from "../../../src/tool/permission-types.js";
import type { AnyTool, ToolUseContext } from "../../../src/tool/types.js";
import { createLspTool } from "../../../src/tools/lsp/tool.js";
import { builtInTools } from "../../../src/tools/registry.js";
import { callText, validationCode } from "../helpers.js";
import { copyLspProject, processesIn } from "./fixture.js";

let dir: string;
let service: LspService;
let tool: AnyTool;

function contextFor(deny: PermissionRule[] = []): ToolUseContext {
  const permissionContext = emptyPermissionContext(dir);
  permissionContext.rules.deny.push(...deny);
  return createToolUseContext({
    options: {
      tools: [...builtInTools(), tool],
      model: "replay:test",
      cwd: dir,
      sessionId: "lsp-test",
      sessionDir: join(dir, ".session"),
      isNonInteractive: true,
    },
    appState: { toolPermissionContext: permissionContext },
  });
}

function ask(operation: string, file: string, line: number, character: number, context = contextFor()) {
  return callText(tool, { operation, filePath: join(dir, file), line, character }, context);
}

beforeAll(() => {
  dir = copyLspProject();
  const choice = chooseLspServers({ cwd: dir, trusted: true });
  service = new LspService(choice.servers, dir);
  tool = createLspTool(service);
});

afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

// The first call starts the server, which takes seconds (more on a loaded machine).
describe("the LSP tool with typescript-language-server", { timeout: 120_000 }, () => {
  it("is offered for a TypeScript project, deferred, and read-only", () => {
    expect(service.servers.map((server) => server.name)).toEqual(["typescript"]);
    expect(tool.isEnabled()).toBe(true);
    expect(tool.shouldDefer).toBe(true);
    const input = { operation: "hover", filePath: join(dir, "src/main.ts"), line: 1, character: 1 };
    expect(tool.isReadOnly(input)).toBe(true);
    expect(tool.isConcurrencySafe(input)).toBe(true);
  });

  it("hover gives the type at the position", async () => {
    // line 4: `  const total: number = totalArea(...)`, on `total`.
    expect(await ask("hover", "src/main.ts", 4, 10)).toContain("const total: number");
  });

  it("goToDefinition finds the declaration in the other file", async () => {
    // line 4, on the call `totalArea(` (column 26).
    const text = await ask("goToDefinition", "src/main.ts", 4, 26);
    expect(text).toContain("src/shapes.ts:20:17: export function totalArea(");
  });

  it("findReferences lists every use across files", async () => {
    // line 20 of shapes.ts: `export function totalArea(`, on the name (column 17).
    const text = await ask("findReferences", "src/shapes.ts", 20, 17);
    expect(text).toMatch(/^Found 3 references in 2 files:/);
    expect(text).toContain("src/shapes.ts:20:17");
    expect(text).toContain("src/main.ts:1:26");
    expect(text).toContain("src/main.ts:4:25");
  });

  it("documentSymbol lists the file's symbols as a tree", async () => {
    const text = await ask("documentSymbol", "src/shapes.ts", 1, 1);
    expect(text).toContain("Shape (Interface) - line 2");
    expect(text).toContain("Square (Class) - line 6");
    expect(text).toMatch(/\n {2}area \(Method\) - line 8/);
    expect(text).toContain("totalArea (Function) - line 20");
  });

  it("workspaceSymbol finds symbols named like the word at the position", async () => {
    const text = await ask("workspaceSymbol", "src/main.ts", 4, 26);
    expect(text).toContain('matching "totalArea"');
    expect(text).toContain("totalArea (Function) - src/shapes.ts:20:");
  });

  it("goToImplementation finds the classes implementing an interface", async () => {
    // line 2: `export interface Shape {`, on `Shape`.
    const text = await ask("goToImplementation", "src/shapes.ts", 2, 18);
    expect(text).toMatch(/^Found 2 implementations in 1 file:/);
    expect(text).toContain("src/shapes.ts:6:14: export class Square implements Shape {");
    expect(text).toContain("src/shapes.ts:13:14: export class Circle implements Shape {");
  });

  it("prepareCallHierarchy names the function at the position", async () => {
    expect(await ask("prepareCallHierarchy", "src/shapes.ts", 20, 17)).toContain(
      "totalArea (Function) - src/shapes.ts:20:17",
    );
  });

  it("incomingCalls lists the callers", async () => {
    const text = await ask("incomingCalls", "src/shapes.ts", 20, 17);
    expect(text).toMatch(/^Found 1 caller of totalArea:/);
    expect(text).toContain("report (Function) - src/main.ts:3:17 (called at src/main.ts:4:25)");
  });

  it("outgoingCalls lists what the function calls", async () => {
    const text = await ask("outgoingCalls", "src/main.ts", 3, 17);
    expect(text).toContain("calls made by report");
    expect(text).toContain("totalArea (Function) - src/shapes.ts:20:17 (called at src/main.ts:4:25)");
    expect(text).toContain("Square (Class) - src/shapes.ts:6:14");
  });

  it("takes a path relative to the session's working directory, and judges it where it leads", async () => {
    const relative = { operation: "hover", filePath: "src/main.ts", line: 4, character: 10 };
    expect(await callText(tool, relative, contextFor())).toContain("const total: number");
    const deny: PermissionRule = {
      source: "session",
      behavior: "deny",
      value: { toolName: "Read", ruleContent: "./src/main.ts" },
    };
    const inSrc = contextFor([deny]);
    inSrc.setAppState((state) => ({ ...state, bashCwd: join(dir, "src") }));
    expect(await callText(tool, { ...relative, filePath: "./main.ts" }, inSrc)).toMatch(/denied/i);
    expect(await callText(tool, { ...relative, filePath: "../src/./main.ts" }, inSrc)).toMatch(/denied/i);
  });

  it("refuses a file a Read deny rule covers, and leaves such files out of results", async () => {
    const deny: PermissionRule = {
      source: "session",
      behavior: "deny",
      value: { toolName: "Read", ruleContent: "./src/main.ts" },
    };
    const refused = await ask("hover", "src/main.ts", 4, 10, contextFor([deny]));
    expect(refused).toMatch(/denied/i);
    const text = await ask("findReferences", "src/shapes.ts", 20, 17, contextFor([deny]));
    expect(text).toMatch(/^Found 1 reference:/);
    expect(text).not.toContain("main.ts");
    expect(text).toContain("2 results in files you may not read left out");
  });

  it("refuses files over 10 MB, missing files and files no server handles, with the reason", async () => {
    const big = join(dir, "src/big.ts");
    writeFileSync(big, "");
    truncateSync(big, 10 * 1024 * 1024 + 1);
    const input = (filePath: string) => ({ operation: "hover", filePath, line: 1, character: 1 });
    expect(await validationCode(tool, input(big), contextFor())).toBe(3);
    expect(await callText(tool, input(big), contextFor())).toContain("up to 10 MB");
    expect(await validationCode(tool, input(join(dir, "src/none.ts")), contextFor())).toBe(2);
    writeFileSync(join(dir, "notes.md"), "# notes\n");
    expect(await callText(tool, input(join(dir, "notes.md")), contextFor())).toContain(
      "No language server here handles",
    );
    rmSync(big);
  });

  it("leaves no language-server process behind once closed", async () => {
    const manager = await service.manager();
    const running = manager.runningClients();
    expect(running.length).toBe(1);
    expect(processesIn(dir).length).toBeGreaterThanOrEqual(2); // the server and its tsserver
    await service.close();
    expect(processesIn(dir)).toEqual([]);
    expect(tool.isEnabled()).toBe(false);
  });
});

describe("which servers a project gets", () => {
  it("offers no built-in server to a folder without TypeScript or Python, and reports bad settings", () => {
    const empty = copyLspProject("warden-lsp-empty-");
    rmSync(join(empty, "src"), { recursive: true });
    rmSync(join(empty, "tsconfig.json"));
    expect(chooseLspServers({ cwd: empty, trusted: true }).servers).toEqual([]);
    const choice = chooseLspServers({
      cwd: empty,
      trusted: true,
      settings: { broken: { command: 3 }, missing: { command: "no-such-language-server-xyz", extensions: [".zz"] } },
    });
    expect(choice.servers).toEqual([]);
    expect(choice.warnings.join("\n")).toContain("lspServers.broken is not valid");
    expect(choice.warnings.join("\n")).toContain("no-such-language-server-xyz was not found");
    rmSync(empty, { recursive: true, force: true });
  });

  it("runs a server from the project's node_modules/.bin only in a trusted folder", () => {
    const project = copyLspProject("warden-lsp-bin-");
    const bin = join(project, "node_modules", ".bin");
    mkdirSync(bin, { recursive: true });
    writeFileSync(join(bin, "pyright-langserver"), "#!/bin/sh\n", { mode: 0o755 });
    writeFileSync(join(project, "app.py"), "x = 1\n");
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      const untrusted = chooseLspServers({ cwd: project, trusted: false }).servers.map((s) => s.name);
      const trusted = chooseLspServers({ cwd: project, trusted: true }).servers;
      expect(untrusted).toEqual(["typescript"]);
      expect(trusted.map((s) => s.name)).toEqual(["typescript", "pyright"]);
      expect(trusted[1]?.command).toBe(join(bin, "pyright-langserver"));
    } finally {
      process.env.PATH = path;
      rmSync(project, { recursive: true, force: true });
    }
  });
});
