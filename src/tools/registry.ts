// The built-in tools, in the order they are offered to the model (the order is part of the
// request prefix: keep it stable). Each tool lives in its own folder beside this file.
import type { AnyTool } from "../tool/types.js";
import { BashTool } from "./bash/tool.js";
import { TaskOutputTool } from "./task-output/tool.js";
import { TaskStopTool } from "./task-stop/tool.js";
import { ToolSearchTool } from "./tool-search/tool.js";

export function builtInTools(): AnyTool[] {
  return [BashTool, TaskOutputTool, TaskStopTool, ToolSearchTool];
}
