// The layer order of src/ (docs/architecture.md explains each layer), checked by
// test/architecture/layers.test.ts and by hand with `npx depcruise src`.
//
// Every import counts: type-only imports (`import type`, checked before TypeScript erases them),
// re-exports and dynamic `import()`. A layer may import itself and the layers listed for it, no
// others; the table has no cycle, so neither can the folders. Inside a layer no two files may
// import each other, even through others.

/** What each folder of src/ may import besides itself. Keep in step with docs/architecture.md. */
const MAY_IMPORT = {
  // The foundations: plain data and file-system basics that know nothing of tools.
  messages: [],
  fs: [],
  // Process lifetime: the out-of-process guard that kills a session's children when it dies.
  process: [],
  // The contract every tool is written against: Tool, ToolUseContext, AppState, permission types.
  tool: ["messages"],
  config: ["tool", "fs"],
  // Talking to models: knows messages and the shape of a tool schema, never a tool or a rule.
  providers: ["messages", "tool"],
  // What is known of each model: context window, output limit, price; what a session spent.
  models: ["messages"],
  // Pure analysis of shell text: parse, words, validators, read-only classes, sandbox policy.
  shell: ["tool", "config", "fs"],
  hooks: ["messages", "tool", "config", "process"],
  // The authority: rules, modes, the pipeline, the Bash decision; never the loop.
  permissions: ["messages", "tool", "config", "fs", "shell", "hooks", "providers"],
  results: ["messages", "tool", "config", "fs"],
  session: ["messages", "tool", "config", "fs"],
  // Language servers for the LSP tool: which may start here (cheap), and the client, loaded on use.
  lsp: ["process"],
  // Background tasks of every kind (shell commands, agents, remote jobs): the session's registry,
  // their output files and the notice the model gets when one ends. Tools start and read them.
  tasks: ["tool", "shell", "process"],
  // The concrete tools: the contract and the services they use, never the loop or the CLI.
  // REPL (code mode) runs its programs' calls through orchestration's runToolUse, as a direct call.
  tools: [
    "messages",
    "tool",
    "config",
    "fs",
    "process",
    "shell",
    "permissions",
    "session",
    "results",
    "lsp",
    "orchestration",
    "tasks",
  ],
  // Running a response's tool calls: it asks the authority through CanUseTool (src/tool/), so it
  // never imports the permission engine itself.
  orchestration: ["messages", "tool", "config", "hooks", "results"],
  // Context management before each request: token estimates, attachments, snip, microcompact,
  // compaction. Run by the loop; knows no concrete tool (permissions: deny rules keep a memory
  // file out).
  context: ["messages", "tool", "config", "fs", "providers", "hooks", "permissions", "results", "session", "models"],
  loop: [
    "messages",
    "tool",
    "config",
    "fs",
    "providers",
    "hooks",
    "results",
    "session",
    "orchestration",
    "models",
    "context",
  ],
  // MCP: a source of tools for a session (client) and a front end serving ours (server).
  mcp: ["messages", "tool", "config", "fs", "process", "providers", "results", "tools", "orchestration"],
  // The command surface of a running session: what a front end may change (permission mode with
  // plan mode's bookkeeping, model, rules, queued messages, interrupt), each change in one place.
  control: ["messages", "tool", "config", "permissions", "loop"],
  // The interactive terminal UI (ink + react, loaded only on the interactive path): shows a
  // session and takes the person's keys; the CLI wires the session and hands it over.
  ui: [
    "messages",
    "tool",
    "config",
    "fs",
    "providers",
    "models",
    "hooks",
    "permissions",
    "results",
    "session",
    "orchestration",
    "context",
    "loop",
    "control",
  ],
  // Transcripts as web pages (`warden view`, the fleet dashboard's job pages): reads files, runs nothing.
  view: ["messages", "tool", "config", "fs", "models", "session"],
  // The fleet: sessions as BullMQ jobs in Redis, run by workers as child `warden` processes (a job's session spec on stdin).
  // Reached only through `warden fleet` (and the tools that submit to it, through the CLI's wiring).
  fleet: ["messages", "tool", "config", "fs", "process", "session", "view"],
  cli: ["*"],
  // The Agent SDK's API in one process (query(), tool(), createSdkMcpServer()): a front end beside
  // the CLI, the control protocol's client in memory, so it builds on the CLI's session wiring.
  // Only the public face (src/index.ts) imports it.
  sdk: ["*"],
};

/** src/index.ts, the library's public face, may re-export any layer. */
const ROOT_FILES_MAY_IMPORT_ANYTHING = "^src/[^/]+\\.ts$";

const layerRules = Object.entries(MAY_IMPORT)
  .filter(([, allowed]) => !allowed.includes("*"))
  .map(([layer, allowed]) => ({
    name: `layer-${layer}`,
    comment: `src/${layer}/ may import only ${[layer, ...allowed].map((l) => `src/${l}/`).join(", ")}`,
    severity: "error",
    from: { path: `^src/${layer}/` },
    to: { path: "^src/", pathNot: `^src/(${[layer, ...allowed].join("|")})/` },
  }));

// Inside src/cli/: the front ends (each a folder) build on the shared folders (flags/, session/,
// headless/, startup/) and never on one another, so a front end can change without moving the
// others; the shared folders never import a front end. The exceptions are named: process
// teammates speak the control
// protocol with their lead, the session builder starts process teammates, and commands/ is where
// the subcommands pick their front end.
const CLI_FRONT_ENDS = ["interactive", "acp", "teammates", "control-protocol"];
const CLI_SHARED = ["flags", "session", "headless", "startup"];
const CLI_MAY_USE_FRONT_ENDS = {
  teammates: ["control-protocol"],
  session: ["teammates"],
};
const cliRules = [...CLI_FRONT_ENDS, ...CLI_SHARED].map((folder) => {
  const allowed = [folder, ...(CLI_MAY_USE_FRONT_ENDS[folder] ?? [])];
  const refused = CLI_FRONT_ENDS.filter((other) => !allowed.includes(other));
  return {
    name: `cli-${folder}`,
    comment: `src/cli/${folder}/ may not import the front ends ${refused.map((f) => `src/cli/${f}/`).join(", ")}`,
    severity: "error",
    from: { path: `^src/cli/${folder}/` },
    to: { path: `^src/cli/(${refused.join("|")})/` },
  };
});

module.exports = {
  forbidden: [
    ...cliRules,
    {
      name: "sdk-only-from-the-public-face",
      comment: "src/sdk/ (the in-process Agent SDK) is a front end: only src/index.ts imports it",
      severity: "error",
      from: { path: "^src/", pathNot: ["^src/sdk/", "^src/index\\.ts$"] },
      to: { path: "^src/sdk/" },
    },
    // The rules issue 10 names, spelled out so a violation says which one it broke. The table
    // above implies each of them; these keep them even if the table is loosened by mistake.
    {
      name: "shell-permissions-not-loop",
      comment: "shell analysis and the permission engine work without the agent loop",
      severity: "error",
      from: { path: "^src/(shell|permissions)/" },
      to: { path: "^src/loop/" },
    },
    {
      name: "hooks-not-loop",
      comment: "hooks are run by the loop and the engine, never the other way round (not even a type)",
      severity: "error",
      from: { path: "^src/hooks/" },
      to: { path: "^src/loop/" },
    },
    {
      name: "tools-not-loop-or-cli",
      comment: "a tool knows its contract (src/tool/), never who drives it",
      severity: "error",
      from: { path: "^src/tools/" },
      to: { path: "^src/(loop|cli)/" },
    },
    {
      name: "providers-not-tools-or-permissions",
      comment: "a provider turns messages and schemas into wire requests; it never runs or judges a tool",
      severity: "error",
      from: { path: "^src/providers/" },
      to: { path: "^src/(tools|permissions)/" },
    },
    {
      name: "contract-not-concrete-tools",
      comment: "the contract (src/tool/) is written for every tool; it names none",
      severity: "error",
      from: { path: "^src/tool/" },
      to: { path: "^src/tools/" },
    },
    {
      name: "no-cycles",
      comment: "no module reaches itself through its imports (type-only ones included)",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "not-to-unresolvable",
      comment: "an import the checker cannot resolve would escape every rule above",
      severity: "error",
      from: { path: "^src/" },
      to: { couldNotResolve: true },
    },
    ...layerRules,
    {
      name: "layer-unknown",
      comment: "a new folder of src/ needs its row in MAY_IMPORT (and in docs/architecture.md)",
      severity: "error",
      from: { path: "^src/", pathNot: [`^src/(${Object.keys(MAY_IMPORT).join("|")})/`, ROOT_FILES_MAY_IMPORT_ANYTHING] },
      to: {},
    },
  ],
  options: {
    // `import type` and type-only re-exports are layer edges too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules" },
    // Resolve packages as Node's ESM loader does (their "exports" maps), so none looks unresolvable.
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "types", "node", "default"] },
  },
};
