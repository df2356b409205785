// `warden acp [flags]`: serve the Agent Client Protocol on stdin/stdout for an editor (Zed,
// JetBrains, Neovim plugins), with the same session flags as -p (--model, --permission-mode,
// --settings, --allowedTools...). stdout is the protocol channel; messages for people go to stderr.
import { parseSessionArgs, UsageError, usageText } from "../flags/session-config.js";

const err = (text: string) => void process.stderr.write(text);

export async function run(argv: string[]): Promise<number> {
  let base: ReturnType<typeof parseSessionArgs>;
  try {
    base = parseSessionArgs(argv);
    if (base.prompt !== undefined) throw new UsageError("warden acp takes no prompt: the editor sends the prompts");
    if (base.resume !== undefined || base.continueLatest) {
      throw new UsageError("warden acp starts new sessions; --resume and --continue do not apply");
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err(`warden acp: ${error.message}\nRun 'warden acp --help' for the options.\n`);
    return 2;
  }
  if (base.help) {
    process.stdout.write(
      `Usage: warden acp [options]\n\nServes the Agent Client Protocol over stdio for an editor. Options as for -p:\n\n${usageText()}`,
    );
    return 0;
  }
  const { serveAcp } = await import("../acp/server.js");
  await serveAcp({
    base: { ...base, print: true },
    input: process.stdin,
    output: process.stdout,
    warn: (message) => err(`warden: warning: ${message}\n`),
  });
  return 0;
}
