// The model-facing text of the Bash tool. Kept as text only: wording changes here never touch logic.

export const BASH_TOOL_NAME = "Bash";

export interface BashPromptOptions {
  defaultTimeoutMs: number;
  maxTimeoutMs: number;
  maxOutputChars: number;
  sandboxEnabled: boolean;
  sandboxAllowsNetwork: boolean;
  /** Without the whole network: the hosts reachable through the filtering proxy (may be empty). */
  sandboxAllowedDomains?: readonly string[];
  /** Hosts the filtering proxy refuses (with the whole network otherwise open, or within the allowed ones). */
  sandboxDeniedDomains?: readonly string[];
  sandboxAllowsUnixSockets: boolean;
}

export function bashPrompt(options: BashPromptOptions): string {
  const sections = [
    `Executes a bash command and returns its output (stdout and stderr together).

The working directory persists between commands (a \`cd\` carries over); nothing else does: exported variables, functions and aliases are gone in the next call.

IMPORTANT: This tool is for terminal operations (git, package managers, builds, tests, programs), not for what the dedicated tools do better:
- Read files with Read, not cat, head, tail or less.
- Search file contents with Grep, not grep or rg.
- Find files with Glob, not find or ls -R.
- Edit files with Edit, not sed or awk; create files with Write, not echo or cat with a heredoc.
- Talk to the user in your reply text, not with echo or printf.

Before you run a command:
1. If it creates files or folders, check first that the parent folder exists and is the one you mean.
2. Quote paths with spaces or special characters in double quotes: cd "/path/with spaces".

Running commands:
- Chain dependent commands with && (mkdir -p build && cd build && cmake ..); use ; only when the second must run even if the first fails. Do not put newlines between commands; a newline inside a quoted string is fine.
- Independent commands can be separate Bash calls in the same turn.
- Prefer absolute paths and staying in one directory over cd-ing around.
- Commands get no input: stdin is empty and there is no terminal. Interactive programs (editors, pagers, prompts, git rebase -i) end or fail, so pass flags that make them non-interactive (-y, --yes, --no-edit, CI=1).
- Timeout: ${options.defaultTimeoutMs / 1000} seconds by default; set timeout (in milliseconds, up to ${options.maxTimeoutMs}) for longer work. On timeout the command and everything it started is stopped, except programs that typically run long (dev servers, watch builds, test runners: npm, node, vite, pytest, cargo, make, docker...): those move to the background and you get a task id to read (TaskOutput) or stop (TaskStop).
- Long-running processes (dev servers, watchers, anything that does not end by itself) must run with run_in_background: true. You get a task id at once and a notification when it ends; read its output with TaskOutput and stop it with TaskStop. Do not append & to a command yourself.
- Do not start a command with sleep of 2 seconds or more; poll for the condition you are waiting on or run in the background instead.
- Output longer than ${options.maxOutputChars} characters is saved to a file and you get a preview and its path.
- Write a short description (5-10 words, active voice) of what the command does, e.g. "Install the project's dependencies".
- Exit codes that answer a question are reported as their meaning, not as failures: grep/rg 1 = no matches, diff 1 = files differ, test 1 = false, find 1 = some folders unreadable.`,
  ];

  if (options.sandboxEnabled) {
    sections.push(
      `Sandbox: commands run in a sandbox. They can read the whole file system but write only inside the working directories and the session's temp folder ($TMPDIR); settings files, .git/hooks and .git/config are read-only.${
        options.sandboxAllowsNetwork
          ? ""
          : options.sandboxAllowedDomains?.length
            ? ` The network is limited to these hosts: ${options.sandboxAllowedDomains.join(", ")}${
                options.sandboxDeniedDomains?.length ? ` (except ${options.sandboxDeniedDomains.join(", ")})` : ""
              }, reached through the proxies set in HTTP_PROXY/HTTPS_PROXY (HTTP) and ALL_PROXY (SOCKS5); other hosts are refused (a 403 from the HTTP proxy); services on the host's 127.0.0.1 are out of reach unless listed.`
            : " There is no network access, not even to services on 127.0.0.1."
      }${
        options.sandboxAllowsUnixSockets
          ? ""
          : " Unix sockets cannot be opened, so daemons such as Docker or the ssh agent are out of reach."
      } When a command fails because of the sandbox the result says so; only then, and only if the command truly needs it, run it again with dangerouslyDisableSandbox: true (the user will be asked).`,
    );
  }

  sections.push(`Git:
- Never change git config, never run destructive commands (push --force, reset --hard, checkout ., clean -f, branch -D) unless the user asked for exactly that, and never skip hooks (--no-verify) or signing.
- Never force-push to main or master; warn the user if they ask for it.
- Commit only when the user asks. Stage files by name rather than with git add -A or git add ., so secrets and large files are not committed by accident.
- Pass commit messages through a heredoc so quoting and newlines survive:
  git commit -m "$(cat <<'EOF'
  Summary line

  Details.
  EOF
  )"
- If a hook fails, fix the problem and make a new commit; do not amend a commit you did not just make.`);

  return sections.join("\n\n");
}
