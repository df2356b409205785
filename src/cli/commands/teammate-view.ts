// `warden teammate-view FILE TITLE` (internal): a teammate's tmux pane in `--teammate-mode tmux`
// (see src/cli/teammates/pane.ts). Not meant to be run by hand.
export async function run(argv: string[]): Promise<number> {
  const [path, title] = argv;
  if (!path) {
    process.stderr.write("usage: warden teammate-view TRANSCRIPT [TITLE]\n");
    return 2;
  }
  const { followTranscript } = await import("../teammates/view.js");
  return followTranscript(path, title ?? "teammate", (text) => process.stdout.write(text));
}
