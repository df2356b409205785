// `warden trust [DIR]`: shows what a folder's own settings would grant (allow rules, hooks, MCP
// servers, more directories, a weaker sandbox...) and, once the user agrees (or with --yes),
// records the folder and the fingerprint of those settings in ~/.warden/settings.json. A later
// change to them makes sessions ask again. `--revoke` forgets the folder.
import { resolve } from "node:path";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { isDirectory } from "../../fs/path-kind.js";

const out = (text: string) => void process.stdout.write(text);
const err = (text: string) => void process.stderr.write(text);

const USAGE = `Usage: warden trust [DIR] [--yes] [--settings <file-or-json>]
       warden trust --revoke [DIR]

Shows what the folder's own settings (.warden/ and .claude/ settings.json and settings.local.json,
.mcp.json) would grant beyond restricting, then asks before trusting it. Until then a session in
the folder applies them only where they restrict (deny and ask rules, a narrower mode, the sandbox
turned on). DIR defaults to the current directory.

  --yes        trust without asking (scripts)
  --revoke     forget the folder: its settings only restrict again
  --settings   the --settings value the sessions there will use (it can change the mode)
`;

export async function run(argv: string[]): Promise<number> {
  let values: { yes?: boolean; revoke?: boolean; settings?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        yes: { type: "boolean", short: "y" },
        revoke: { type: "boolean" },
        settings: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    }));
    if (positionals.length > 1) throw new Error("expected at most one folder");
  } catch (error) {
    err(`warden trust: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    out(USAGE);
    return 0;
  }
  const folder = resolve(positionals[0] ?? ".");
  if (!isDirectory(folder)) {
    err(`warden trust: ${folder} is not a directory\n`);
    return 2;
  }
  const { inspectWorkspaceTrust, trustWorkspace, untrustWorkspace } = await import("../../config/workspace-trust.js");
  try {
    if (values.revoke) {
      out(untrustWorkspace(folder) ? `No longer trusted: ${folder}\n` : `${folder} was not trusted.\n`);
      return 0;
    }
    const trust = inspectWorkspaceTrust(folder, { extraSettings: values.settings ? [values.settings] : [] });
    if (trust.status === "not_needed") {
      out(`Nothing to trust: the settings of ${trust.folder} only restrict (or there are none).\n`);
      return 0;
    }
    out(`${describeGrants(trust.folder, trust.widening)}\n`);
    if (trust.status === "trusted") {
      out("Already trusted with exactly these settings.\n");
      return 0;
    }
    if (trust.changedSinceTrusted) out("You trusted this folder before, but its settings have changed since.\n");
    if (!values.yes) {
      if (!process.stdin.isTTY) {
        err("warden trust: not trusted; pass --yes to trust without a prompt\n");
        return 1;
      }
      if (!(await confirm("Trust this folder with these settings? [y/N] "))) {
        out("Not trusted.\n");
        return 1;
      }
    }
    const file = trustWorkspace(trust);
    out(`Trusted (recorded in ${file}). If these settings change, Warden will ask again.\n`);
    return 0;
  } catch (error) {
    err(`warden trust: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

function describeGrants(
  folder: string,
  widening: ReadonlyArray<{ file: string; key: string; grants: string; known: boolean }>,
): string {
  const known = widening.filter((w) => w.known);
  const other = widening.filter((w) => !w.known);
  const lines = [`Trusting ${folder} lets its own settings widen what Warden may do:`];
  for (const w of known) lines.push(`  ${w.file}  ${w.key}: ${w.grants}`);
  if (other.length > 0) {
    lines.push(
      `Also held back until trusted (settings Warden does not act on yet): ${other.map((w) => `${w.file} ${w.key}`).join(", ")}`,
    );
  }
  return lines.join("\n");
}

async function confirm(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await new Promise<string>((done) => rl.question(question, done));
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
