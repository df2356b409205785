// Answering the interactive UI's questions in tmux as a person does: wait for the dialog of this
// call (its title is the call's line), press the choice, wait for the dialog to go.
import { TmuxTerminal } from "../../helpers/tmux.js";
import { type TuiProject, terminals } from "../../helpers/tui-project.js";
import { tempDir, writeScript } from "../../loop/helpers.js";

const ASKS = "Do you want to proceed?";

/** Waits for the question about `callLine` (`Bash(node --test test/)`); returns the screen then. */
export function question(t: TmuxTerminal, callLine: string): Promise<string> {
  return t.waitFor((screen) => screen.includes(ASKS) && screen.includes(`│ ${callLine}`));
}

/** 1: yes once; 2: yes and don't ask again. Returns the question's screen. */
export async function answer(t: TmuxTerminal, callLine: string, choice: "1" | "2"): Promise<string> {
  const asked = await question(t, callLine);
  t.type(choice);
  await t.waitFor((screen) => !screen.includes(`│ ${callLine}`));
  return asked;
}

/** 3: no, and the words go to the model with the refusal. */
export async function decline(t: TmuxTerminal, callLine: string, words: string): Promise<string> {
  const asked = await question(t, callLine);
  t.type("3");
  await t.waitFor("Tell Warden what to do differently");
  t.type(words);
  await t.waitFor(words);
  t.press("Enter");
  await t.waitFor((screen) => !screen.includes(`│ ${callLine}`));
  return asked;
}

/** The built warden in tmux, in `cwd` (a fixture repository), playing `turns` (another script per start). */
export function terminalProject(
  cwd: string,
  turns: object[],
): TuiProject & { start(extraArgs?: string[], env?: Record<string, string>, scriptPath?: string): TmuxTerminal } {
  const home = tempDir("warden-journey-home-");
  const script = writeScript(tempDir("warden-journey-script-"), turns);
  return {
    home,
    cwd,
    script,
    start(extraArgs: string[] = [], env: Record<string, string> = {}, scriptPath = script) {
      const terminal = TmuxTerminal.start({
        cwd,
        args: ["--model", `replay:${scriptPath}`, ...extraArgs],
        env: { WARDEN_HOME: home, HOME: home, ...env },
        height: 40,
      });
      terminals.push(terminal);
      return terminal;
    },
  };
}
