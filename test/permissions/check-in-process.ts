// `warden permissions ARGS` called in process: the command's own entry (the code path the binary
// runs after parsing its first word) with its streams captured, under a home of the test's own.
// check-cli.test.ts keeps one run through the real binary; everything else comes through here.

import { join } from "node:path";
import { Readable } from "node:stream";
import { run as permissionsCommand } from "../../src/cli/commands/permissions.js";
import { tempDir, writeJson } from "./helpers.js";

export interface CommandRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The environment a `warden` process would get: a private home, no managed policy. */
function homeEnvironment(home: string): Record<string, string> {
  return { HOME: home, WARDEN_HOME: join(home, ".warden"), WARDEN_MANAGED_SETTINGS: join(home, "policy.json") };
}

export async function permissionsInProcess(
  args: string[],
  options: { home: string; cwd: string; input?: string },
): Promise<CommandRun> {
  const env = homeEnvironment(options.home);
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  let stdout = "";
  let stderr = "";
  try {
    const code = await permissionsCommand(args, {
      stdin: Readable.from([options.input ?? ""]),
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      cwd: options.cwd,
    }).catch((error: unknown) => {
      // As the binary's entry does with an error a command throws: said on stderr, exit code 1.
      stderr += `warden: ${error instanceof Error ? error.message : String(error)}\n`;
      return 1;
    });
    return { code, stdout, stderr };
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

/** A home and a project whose settings deny reading secret/ and allow editing src/. */
export function checkProject(): { home: string; cwd: string } {
  const home = tempDir("warden-check-home-");
  const cwd = tempDir("warden-check-project-");
  writeJson(join(cwd, ".warden", "settings.json"), {
    permissions: { deny: ["Read(./secret/**)"], allow: ["Edit(./src/**)"] },
  });
  return { home, cwd };
}

/** One line of the Bash permission corpus (../shared/corpus/bash) or of our own variants of it. */
export interface CorpusEntry {
  id: string;
  command: string;
  rules: { allow: string[]; deny: string[] };
  mode: string;
  expect: "allow" | "ask" | "deny";
  category: string;
  source?: string;
}
