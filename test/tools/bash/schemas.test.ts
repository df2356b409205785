import { describe, expect, it } from "vitest";
import { toolInputJSONSchema } from "../../../src/tool/schema.js";
import { BashTool } from "../../../src/tools/bash/tool.js";
import { TaskOutputTool } from "../../../src/tools/task-output/tool.js";
import { TaskStopTool } from "../../../src/tools/task-stop/tool.js";

// The schemas are part of the request prefix: a change must show up here and be reviewed.
describe("Bash, TaskOutput and TaskStop schemas", () => {
  it("match the golden snapshot", () => {
    const tools = [BashTool, TaskOutputTool, TaskStopTool];
    expect(Object.fromEntries(tools.map((tool) => [tool.name, toolInputJSONSchema(tool)]))).toMatchSnapshot();
  });
});
