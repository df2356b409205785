// The built-in tools, in the order they are offered to the model (the order is part of the
// request prefix: keep it stable). Each tool lives in its own folder beside this file.
import type { AnyTool } from "../tool/types.js";
import { BashTool } from "./bash/tool.js";
import { EditTool } from "./edit/tool.js";
import { GlobTool } from "./glob/tool.js";
import { GrepTool } from "./grep/tool.js";
import { NotebookEditTool } from "./notebook-edit/tool.js";
import { ReadTool } from "./read/tool.js";
import { TaskOutputTool } from "./task-output/tool.js";
import { TaskStopTool } from "./task-stop/tool.js";
import { ToolSearchTool } from "./tool-search/tool.js";
import { WriteTool } from "./write/tool.js";

export function builtInTools(): AnyTool[] {
  return [
    ReadTool,
    WriteTool,
    EditTool,
    BashTool,
    GlobTool,
    GrepTool,
    NotebookEditTool,
    TaskOutputTool,
    TaskStopTool,
    ToolSearchTool,
  ];
}
