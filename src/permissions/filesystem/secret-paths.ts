// Files that hold credentials: private keys, cloud and registry tokens, `.env` files, a process's
// environment. Reading one is not a question of where it lies (a project's `.env` is inside the
// working directories): a rule for a command does not grant handing its content to that command's
// options, and reading one in a command that also talks to the network asks.
import { basename, sep } from "node:path";
import { userHome } from "../../config/paths.js";

/** Under the home folder: folders of keys and files of tokens. */
const HOME_SECRET_FOLDERS = [
  ".ssh",
  ".gnupg",
  ".aws",
  ".azure",
  ".config/gcloud",
  ".kube",
  ".docker",
  ".password-store",
];
const HOME_SECRET_FILES = [
  ".netrc",
  ".git-credentials",
  ".npmrc",
  ".pypirc",
  ".pgpass",
  ".my.cnf",
  ".config/gh/hosts.yml",
  ".config/hub",
  ".cargo/credentials",
  ".cargo/credentials.toml",
  ".gem/credentials",
  ".terraform.d/credentials.tfrc.json",
];
/** Wherever they lie. */
const SECRET_NAMES =
  /^(id_(rsa|dsa|ecdsa|ed25519)(_sk)?|.*\.(pem|key|p12|pfx|keystore|jks)|credentials(\.json|\.yml|\.yaml)?|\.env(\..+)?|secrets?\.(json|ya?ml|toml))$/;
/** `.env.example` and friends are templates, not secrets. */
const TEMPLATE_NAMES = /^\.env\.(example|sample|template|dist|defaults)$/;

/** Why the file at this absolute path holds secrets, or undefined. */
export function secretPathReason(absolute: string): string | undefined {
  if (/^\/proc\/[^/]+\/(task\/[^/]+\/)?environ$/.test(absolute)) return "a process's environment";
  if (absolute === "/etc/shadow" || absolute === "/etc/gshadow") return "the system's password hashes";
  const home = userHome();
  for (const folder of HOME_SECRET_FOLDERS) {
    const root = `${home}${sep}${folder}`;
    if (absolute === root || absolute.startsWith(`${root}${sep}`)) return `a file under ~/${folder}`;
  }
  for (const file of HOME_SECRET_FILES) if (absolute === `${home}${sep}${file}`) return `~/${file}`;
  const name = basename(absolute);
  if (SECRET_NAMES.test(name) && !TEMPLATE_NAMES.test(name) && !name.endsWith(".pub")) return `a ${name} file`;
  return undefined;
}
