// What PowerShell's commands are, by their canonical (lower-case) cmdlet names: aliases resolved,
// module qualifiers dropped. Every table here is a list of what is known; a command in none of
// them is unknown, and an unknown command is never read-only.

/** Built-in aliases (and their common spellings) → the cmdlet they run. */
const ALIASES: Record<string, string> = {
  gci: "get-childitem",
  ls: "get-childitem",
  dir: "get-childitem",
  gc: "get-content",
  cat: "get-content",
  type: "get-content",
  sls: "select-string",
  gl: "get-location",
  pwd: "get-location",
  gps: "get-process",
  ps: "get-process",
  measure: "measure-object",
  sort: "sort-object",
  where: "where-object",
  "?": "where-object",
  select: "select-object",
  gi: "get-item",
  gp: "get-itemproperty",
  rvpa: "resolve-path",
  gcm: "get-command",
  ft: "format-table",
  fl: "format-list",
  fw: "format-wide",
  echo: "write-output",
  write: "write-output",
  gm: "get-member",
  group: "group-object",
  compare: "compare-object",
  diff: "compare-object",
  gv: "get-variable",
  gal: "get-alias",
  gdr: "get-psdrive",
  "%": "foreach-object",
  foreach: "foreach-object",
  iex: "invoke-expression",
  icm: "invoke-command",
  saps: "start-process",
  start: "start-process",
  sajb: "start-job",
  ii: "invoke-item",
  ipmo: "import-module",
  sc: "set-content",
  ac: "add-content",
  rm: "remove-item",
  del: "remove-item",
  erase: "remove-item",
  rd: "remove-item",
  rmdir: "remove-item",
  ri: "remove-item",
  ni: "new-item",
  md: "new-item",
  mkdir: "new-item",
  cp: "copy-item",
  copy: "copy-item",
  cpi: "copy-item",
  mv: "move-item",
  move: "move-item",
  mi: "move-item",
  ren: "rename-item",
  rni: "rename-item",
  si: "set-item",
  clc: "clear-content",
  cli: "clear-item",
  tee: "tee-object",
  epcsv: "export-csv",
  cd: "set-location",
  sl: "set-location",
  chdir: "set-location",
  pushd: "push-location",
  popd: "pop-location",
  iwr: "invoke-webrequest",
  curl: "invoke-webrequest",
  wget: "invoke-webrequest",
  irm: "invoke-restmethod",
  kill: "stop-process",
  spps: "stop-process",
  sal: "set-alias",
  nal: "new-alias",
  sv: "set-variable",
  set: "set-variable",
  nv: "new-variable",
  sp: "set-itemproperty",
  h: "get-history",
  r: "invoke-history",
  ihy: "invoke-history",
  sleep: "start-sleep",
};

/**
 * Aliases that PowerShell on Linux and macOS does not define, so the native program of that name
 * runs instead. Such a name is read-only only when both readings are (see NATIVE_WRITES_WITH).
 */
export const NATIVE_ON_UNIX = new Set([
  "ls",
  "cat",
  "cp",
  "mv",
  "rm",
  "rmdir",
  "ps",
  "sort",
  "diff",
  "tee",
  "curl",
  "wget",
  "kill",
  "sleep",
  "mkdir",
]);

/** Cmdlets that only read and print (with any of their parameters). */
const READ_ONLY = new Set([
  "get-childitem",
  "get-content",
  "select-string",
  "get-location",
  "get-process",
  "test-path",
  "measure-object",
  "sort-object",
  "where-object",
  "select-object",
  "get-item",
  "get-itemproperty",
  "resolve-path",
  "split-path",
  "join-path",
  "get-date",
  "get-command",
  "format-table",
  "format-list",
  "format-wide",
  "out-string",
  "out-host",
  "write-output",
  "write-host",
  "get-member",
  "group-object",
  "compare-object",
  "convertto-json",
  "convertfrom-json",
  "convertto-csv",
  "convertfrom-csv",
  "get-filehash",
  "get-unique",
  "get-alias",
  "get-variable",
  "get-psdrive",
  "get-history",
  "get-host",
  "get-culture",
  "get-uiculture",
  "get-random",
  "foreach-object",
  "select-xml",
  "out-null",
]);

/** Cmdlets that run code given to them: a string, a script block elsewhere, a program, a module. */
const RUNS_CODE = new Set([
  "invoke-expression",
  "invoke-command",
  "start-process",
  "start-job",
  "start-threadjob",
  "invoke-item",
  "import-module",
  "add-type",
  "new-object",
  "new-module",
  "invoke-history",
  "set-alias",
  "new-alias",
  "register-objectevent",
  "register-engineevent",
  "set-psbreakpoint",
  "enter-pssession",
  "new-pssession",
  "invoke-wmimethod",
  "invoke-cimmethod",
  "pwsh",
  "powershell",
  "pwsh.exe",
  "powershell.exe",
]);

/** Cmdlets that change files (their targets are in WRITE_TARGET_PARAMETERS). */
const WRITES = new Set([
  "set-content",
  "add-content",
  "out-file",
  "remove-item",
  "new-item",
  "copy-item",
  "move-item",
  "rename-item",
  "set-item",
  "clear-content",
  "clear-item",
  "tee-object",
  "export-csv",
  "export-clixml",
  "set-itemproperty",
  "new-itemproperty",
  "remove-itemproperty",
  "start-transcript",
]);

/** Cmdlets that reach the network. */
const NETWORK = new Set([
  "invoke-webrequest",
  "invoke-restmethod",
  "start-bitstransfer",
  "send-mailmessage",
  "test-connection",
  "test-netconnection",
  "resolve-dnsname",
]);

/** Cmdlets whose path arguments are files they read (file rules apply to them). */
const READS_PATHS = new Set([
  "get-content",
  "select-string",
  "get-childitem",
  "get-item",
  "get-itemproperty",
  "test-path",
  "resolve-path",
  "get-filehash",
  "select-xml",
  "import-csv",
  "import-clixml",
]);

export type CmdletClass = "read-only" | "runs-code" | "writes" | "network" | "unknown";

/** `Microsoft.PowerShell.Management\Get-ChildItem` → `get-childitem`; aliases → their cmdlet. */
export function canonicalCommandName(name: string): string {
  let lower = name.toLowerCase();
  const qualified = /^microsoft\.powershell\.[a-z.]+\\(.+)$/.exec(lower);
  if (qualified?.[1]) lower = qualified[1];
  return ALIASES[lower] ?? lower;
}

export function classOfCmdlet(canonical: string): CmdletClass {
  if (READ_ONLY.has(canonical)) return "read-only";
  if (RUNS_CODE.has(canonical)) return "runs-code";
  if (WRITES.has(canonical)) return "writes";
  if (NETWORK.has(canonical)) return "network";
  return "unknown";
}

export function readsPaths(canonical: string): boolean {
  return READS_PATHS.has(canonical);
}

export function writesPaths(canonical: string): boolean {
  return WRITES.has(canonical);
}

/** Parameters (lower-case, without `-`) naming the file a cmdlet writes; positional values count too. */
export const WRITE_TARGET_PARAMETERS = new Set([
  "path",
  "literalpath",
  "filepath",
  "destination",
  "newname",
  "lp",
  "pspath",
]);

/** Parameters (lower-case, without `-`) naming what a cmdlet reads; positional values count too. */
export const READ_TARGET_PARAMETERS = new Set(["path", "literalpath", "lp", "pspath", "filepath"]);

/** Parameters that make a read-only cmdlet recurse or glob: every file under its path is read. */
export const WHOLE_TREE_PARAMETERS = new Set(["recurse", "r", "include", "filter", "depth"]);
