// A program compiled against Warden's types with the compiler's defaults (skipLibCheck off), in
// strict mode, for Node without the DOM library, must find every name the declarations of
// Warden's dependencies use: web-tree-sitter's name EmscriptenModule and WebAssembly.Module, which
// neither it nor Warden brings (src/index.ts declares them empty, to merge with the real ones).
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

describe("Warden's public types, compiled without skipLibCheck", () => {
  it("leave no unresolved name in the declarations of the packages they reach", () => {
    const program = ts.createProgram([join(root, "src", "index.ts")], {
      noEmit: true,
      strict: true,
      skipLibCheck: false,
      types: ["node"],
      lib: ["lib.es2023.d.ts"],
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
    });
    const reached = program.getSourceFiles().filter((f) => f.fileName.includes("/node_modules/web-tree-sitter/"));
    expect(reached.length).toBeGreaterThan(0);
    const problems = reached.flatMap((file) =>
      program
        .getSemanticDiagnostics(file)
        .map((d) => `${file.fileName}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`),
    );
    expect(problems).toEqual([]);
  });
});
