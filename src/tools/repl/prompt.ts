// The model-facing text of the REPL tool (code mode).
export const REPL_TOOL_NAME = "REPL";

export function replPrompt(toolList: string, codeOnlyList: string, codeOnlyCount: number): string {
  const hidden =
    codeOnlyCount > 0
      ? `\n\n${codeOnlyCount} MCP tool(s) are reachable only from here, by the JavaScript name of the group followed by the tool's (\`mcp__github__create_issue\`). Their schemas are not sent: \`schemaOf("mcp__github__create_issue")\` returns one inside the program (print it when you need to read it). A wrong input comes back as an error that names the problem.\n${codeOnlyList}`
      : "";
  return `Runs a short JavaScript program (ES2023, in an isolated engine) that calls this session's tools as async functions and prints what you want to keep. Only what the program prints (print(...) or console.log(...)) and the value it returns come back to you; the tools' results in between stay out of the conversation.

Use it to batch many small steps: read several files and report one line each, search then read the hits, filter a long listing, call an MCP tool in a loop. For a single call, call the tool directly.

- Each tool is an async function taking its input object and resolving to the text of its result: \`const text = await Read({ file_path: "/abs/path" })\`. \`tools["Exact Name"](input)\` works for any tool.
- Every call is checked exactly as a direct call would be (permission rules, hooks, modes). A refused or failed call throws an Error whose message is the reason: catch it to go on.
- Calls run one at a time. The program may use \`await\` at its top level and \`return\` a value.
- There is no Node: no require, process, fs, fetch, timers. The program stops after its time limit, its memory limit, or 200 tool calls; output beyond the limit is cut.

Tools available to the program: ${toolList}.${hidden}`;
}
