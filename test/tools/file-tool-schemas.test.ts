import { describe, expect, it } from "vitest";
import { toolInputJSONSchema } from "../../src/tool/schema.js";
import { EditTool } from "../../src/tools/edit/tool.js";
import { GlobTool } from "../../src/tools/glob/tool.js";
import { GrepTool } from "../../src/tools/grep/tool.js";
import { NotebookEditTool } from "../../src/tools/notebook-edit/tool.js";
import { ReadTool } from "../../src/tools/read/tool.js";
import { WriteTool } from "../../src/tools/write/tool.js";

// What the model sees of each file tool is part of the request prefix: an accidental change to a
// schema must show up as a failing snapshot, reviewed like any other change.
describe("file tool schemas", () => {
  it("match the golden snapshot", () => {
    const tools = [ReadTool, WriteTool, EditTool, GlobTool, GrepTool, NotebookEditTool];
    const schemas = Object.fromEntries(tools.map((tool) => [tool.name, toolInputJSONSchema(tool)]));
    expect(schemas).toMatchSnapshot();
  });

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
    expect(await WriteTool.prompt(options)).toMatch(/To change part of an existing file use Edit/);
    expect(await GrepTool.prompt(options)).toMatch(/Never run grep or rg through Bash/);
    expect(await GlobTool.prompt(options)).toMatch(/instead of find or ls/);
    expect(await ReadTool.prompt(options)).toMatch(/absolute path/);
    expect(await EditTool.prompt(options)).toMatch(/must Read the file/);
  });

  it("describe each call by what it touches", async () => {
    expect(await ReadTool.description({ file_path: "/p/a.ts" })).toBe("Read /p/a.ts");
    expect(await EditTool.description({ file_path: "/p/a.ts" })).toBe("Edit /p/a.ts");
    expect(await GrepTool.description({ pattern: "TODO", path: "/p" })).toBe("Search for TODO in /p");
    expect(await GlobTool.description({ pattern: "**/*.ts" })).toBe("Find files matching **/*.ts");
    expect(await WriteTool.description(undefined)).toMatch(/Write a whole file/);
  });
});
