// The LSP tool through imports, aliases and re-exports, as an editor answers: the real
// typescript-language-server on a copy of test/fixtures/lsp-project with a barrel file added. The
// questions are asked all at once as soon as the server starts, as a model's first calls are: an
// answer must come from the whole project (the declaration in the other file), never from a view of
// the one open file while the project is still loading (where an imported name is only its import).
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseLspServers } from "../../../src/lsp/servers.js";
import { LspService } from "../../../src/lsp/service.js";
import { createToolUseContext } from "../../../src/tool/context.js";
import { emptyPermissionContext } from "../../../src/tool/permission-types.js";
import type { AnyTool, ToolUseContext } from "../../../src/tool/types.js";
import { createLspTool } from "../../../src/tools/lsp/tool.js";
import { builtInTools } from "../../../src/tools/registry.js";
import { callText } from "../helpers.js";
import { copyLspProject } from "./fixture.js";

let dir: string;
let service: LspService;
let tool: AnyTool;

function context(): ToolUseContext {
  return createToolUseContext({
    options: {
      tools: [...builtInTools(), tool],
      model: "replay:test",
      cwd: dir,
      sessionId: "lsp-aliases",
      sessionDir: join(dir, ".session"),
      isNonInteractive: true,
    },
    appState: { toolPermissionContext: emptyPermissionContext(dir) },
  });
}

// Each question: operation, file, 1-based line and character.
const QUESTIONS = {
  definitionOfImportedCall: ["goToDefinition", "src/main.ts", 4, 26],
  definitionOnImportSpecifier: ["goToDefinition", "src/main.ts", 1, 30],
  definitionThroughRenamedReExport: ["goToDefinition", "src/consumer.ts", 4, 28],
  definitionThroughStarReExport: ["goToDefinition", "src/consumer.ts", 4, 72],
  hoverOnImportedCall: ["hover", "src/main.ts", 4, 26],
  referencesFromImportedCall: ["findReferences", "src/main.ts", 4, 26],
  implementationsOfAliasedInterface: ["goToImplementation", "src/consumer.ts", 3, 40],
} as const;

const answers = new Map<keyof typeof QUESTIONS, string>();

beforeAll(async () => {
  dir = copyLspProject("warden-lsp-alias-");
  writeFileSync(
    join(dir, "src", "index.ts"),
    [
      'export { totalArea as sumAreas } from "./shapes.js";',
      'export * from "./shapes.js";',
      'export type { Shape as Figure } from "./shapes.js";',
      "",
    ].join("\n"),
  );
  writeFileSync(
    join(dir, "src", "consumer.ts"),
    [
      'import { Circle, type Figure, sumAreas } from "./index.js";',
      "",
      "export function describeAll(figures: Figure[]): string {",
      '  return "sum " + String(sumAreas(figures)) + " beside " + String(new Circle(1).area());',
      "}",
      "",
    ].join("\n"),
  );
  service = new LspService(chooseLspServers({ cwd: dir, trusted: true }).servers, dir);
  tool = createLspTool(service);
  await Promise.all(
    Object.entries(QUESTIONS).map(async ([name, [operation, file, line, character]]) => {
      const text = await callText(tool, { operation, filePath: join(dir, file), line, character }, context());
      answers.set(name as keyof typeof QUESTIONS, text);
    }),
  );
}, 180_000);

afterAll(async () => {
  await service?.close();
  rmSync(dir, { recursive: true, force: true });
});

const answer = (name: keyof typeof QUESTIONS) => answers.get(name) ?? "";

describe("the LSP tool through imports and re-exports", () => {
  it("goToDefinition on the call of an imported function goes to its declaration in the other file", () => {
    expect(answer("definitionOfImportedCall")).toBe(
      "Found 1 definition:\nsrc/shapes.ts:20:17: export function totalArea(shapes: Shape[]): number {",
    );
  });

  it("goToDefinition on the name in the import statement goes to the declaration too", () => {
    expect(answer("definitionOnImportSpecifier")).toContain("src/shapes.ts:20:17");
  });

  it("goToDefinition follows a renamed re-export and an `export *` to the original declarations", () => {
    expect(answer("definitionThroughRenamedReExport")).toContain("src/shapes.ts:20:17");
    expect(answer("definitionThroughStarReExport")).toContain("src/shapes.ts:13:14");
    expect(answer("definitionThroughRenamedReExport")).not.toContain("src/consumer.ts:1:");
  });

  it("hover on an imported name shows what it is, not just the import", () => {
    expect(answer("hoverOnImportedCall")).toContain("totalArea(shapes: Shape[]): number");
  });

  it("findReferences from an imported call finds the declaration and the uses in every file", () => {
    const text = answer("referencesFromImportedCall");
    expect(text).toContain("src/shapes.ts:20:17");
    expect(text).toContain("src/main.ts:4:25");
    expect(text).toContain("src/index.ts:1:");
  });

  it("goToImplementation through a type re-exported under another name finds the classes", () => {
    const text = answer("implementationsOfAliasedInterface");
    expect(text).toContain("src/shapes.ts:6:14: export class Square implements Shape {");
    expect(text).toContain("src/shapes.ts:13:14: export class Circle implements Shape {");
  });
});
