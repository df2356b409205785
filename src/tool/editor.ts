// What an editor driving the session (over the Agent Client Protocol, `warden acp`) lends the
// tools: its view of the files, where an open buffer's unsaved text is the file's content, and its
// terminals, where the person watches a command run. Each part is present only when the editor
// offered it; a tool without it uses the disk and its own processes. The tools decide when to use
// these (Read for text, Edit/Write, Bash); the permission engine and the read-file state do not
// change with them.

/** The editor's file system (ACP `fs/read_text_file`, `fs/write_text_file`). Paths are absolute. */
export interface EditorFiles {
  /** The file's whole text as the editor has it (an open buffer's unsaved contents included). */
  readTextFile?: (path: string) => Promise<string>;
  /** Replaces the file's text in the editor, which shows the change and saves it. */
  writeTextFile?: (path: string, content: string) => Promise<void>;
}

/** How a command in an editor terminal ended: a code, or the signal that stopped it. */
export interface EditorExitStatus {
  exitCode: number | null;
  signal: string | null;
}

export interface EditorTerminalRequest {
  command: string;
  args: string[];
  cwd: string;
  /** Variables the command needs beyond the editor's own environment. */
  env: Record<string, string>;
  /** The editor keeps only the last this many bytes of output. */
  outputByteLimit: number;
  /** The tool call the terminal belongs to: the editor shows it live in that call. */
  toolCall?: { id: string; name: string; input: Record<string, unknown> };
}

/** A command running in an editor terminal (ACP `terminal/*`). Always released once done with. */
export interface EditorTerminal {
  readonly id: string;
  waitForExit(): Promise<EditorExitStatus>;
  output(): Promise<{ output: string; truncated: boolean; exitStatus?: EditorExitStatus }>;
  /** Stops the command; the terminal stays readable until released. */
  kill(): Promise<void>;
  release(): Promise<void>;
}

/** The editor's terminals (ACP `terminal/create`). */
export interface EditorTerminals {
  create(request: EditorTerminalRequest): Promise<EditorTerminal>;
}

export interface EditorAccess {
  files?: EditorFiles;
  terminals?: EditorTerminals;
}
