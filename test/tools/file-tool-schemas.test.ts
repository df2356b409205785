import { describe, expect, it } from "vitest";
import { EditTool } from "../../src/tools/edit/tool.js";
import { GlobTool } from "../../src/tools/glob/tool.js";
import { GrepTool } from "../../src/tools/grep/tool.js";
import { ReadTool } from "../../src/tools/read/tool.js";
import { WriteTool } from "../../src/tools/write/tool.js";

// What each file tool teaches the model. The exact schemas and prompts of every tool are golden
// snapshots in model-facing.test.ts; these check the lessons that matter whatever the wording.
describe("file tool prompts", () => {
  it("every prompt teaches absolute paths or the dedicated tools over the shell", async () => {
    const options = {
      tools: [],
      permissionContext: {
        mode: "default" as const,
        workingDirectories: ["/"],
        rules: { allow: [], deny: [], ask: [] },
        isBypassPermissionsModeAvailable: false,
      },
      cwd: "/",
    };
    expect(await EditTool.prompt(options)).toMatch(/use Write only for new files/i);
    expect(await WriteTool.prompt(options)).toMatch(/To change part of a file use Edit/);
    expect(await GrepTool.prompt(options)).toMatch(/Never run grep or rg through Bash/);
    expect(await GlobTool.prompt(options)).toMatch(/instead of find or ls/);
    expect(await ReadTool.prompt(options)).toMatch(/file_path should be absolute/);
    expect(await EditTool.prompt(options)).toMatch(/Read the file in this conversation first/);
  });

  it("describe each call by what it touches", async () => {
    expect(await ReadTool.description({ file_path: "/p/a.ts" })).toBe("Read /p/a.ts");
    expect(await EditTool.description({ file_path: "/p/a.ts" })).toBe("Edit /p/a.ts");
    expect(await GrepTool.description({ pattern: "TODO", path: "/p" })).toBe("Search for TODO in /p");
    expect(await GlobTool.description({ pattern: "**/*.ts" })).toBe("Find files matching **/*.ts");
    expect(await WriteTool.description(undefined)).toMatch(/Write a whole file/);
  });
});
