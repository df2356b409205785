// `/model` in the interactive UI switches the model in place, as the Agent SDK's set_model does:
// the same session goes on with the other model, the user's PreModelSwitch hooks are asked first
// (and may refuse) and the PostModelSwitch hooks are told after. The built binary in tmux.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { TmuxTerminal, terminalsKilledAfterEach } from "../helpers/tmux.js";
import { tempDir, text, writeScript } from "../loop/helpers.js";

const terminals = terminalsKilledAfterEach();

const READY = /default mode \(shift\+tab to cycle\)/;

it("/model switches in place; a PreModelSwitch hook can refuse, PostModelSwitch hears the switch", async () => {
  const home = tempDir("warden-model-home-");
  const cwd = tempDir("warden-model-project-");
  const scripts = tempDir("warden-model-scripts-");
  const first = writeScript(scripts, [{ content: [text("answer from the first model")] }], "first.jsonl");
  const second = writeScript(scripts, [{ content: [text("answer from the second model")] }], "second.jsonl");
  const refused = writeScript(scripts, [{ content: [text("never")] }], "refused.jsonl");
  const preLog = join(home, "pre.log");
  const postLog = join(home, "post.log");
  const settings = join(home, "user-settings.json");
  writeFileSync(
    settings,
    JSON.stringify({
      hooks: {
        PreModelSwitch: [
          {
            hooks: [
              {
                type: "command",
                // Refuses any switch to the "refused" script, with its reason on stderr.
                command: `input=$(cat); printf '%s\\n' "$input" >> ${preLog}; case "$input" in *refused.jsonl*) echo 'not that one' >&2; exit 2;; esac`,
              },
            ],
          },
        ],
        PostModelSwitch: [{ hooks: [{ type: "command", command: `cat >> ${postLog}` }] }],
      },
    }),
  );
  const terminal = TmuxTerminal.start({
    cwd,
    args: ["--settings", settings, "--model", `replay:${first}`],
    env: { WARDEN_HOME: join(home, ".warden"), HOME: home },
  });
  terminals.push(terminal);
  await terminal.waitFor(READY);

  terminal.type(`/model replay:${refused}`);
  await terminal.waitFor(`/model replay:${refused}`);
  terminal.press("Enter");
  await terminal.waitFor("not that one");
  expect(existsSync(postLog)).toBe(false);

  terminal.type(`/model replay:${second}`);
  await terminal.waitFor(`/model replay:${second}`);
  terminal.press("Enter");
  await terminal.waitFor(`Now using replay:${second}`);

  terminal.type("hello");
  await terminal.waitFor("> hello");
  terminal.press("Enter");
  const screen = await terminal.waitFor("answer from the second model");
  expect(screen).not.toContain("answer from the first model");

  const asked = readFileSync(preLog, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  expect(asked.map((input) => input.requested_model)).toEqual([`replay:${refused}`, `replay:${second}`]);
  expect(asked[1]).toMatchObject({ hook_event_name: "PreModelSwitch", source: "command" });
  const told = JSON.parse(readFileSync(postLog, "utf8").trim());
  expect(told).toMatchObject({ hook_event_name: "PostModelSwitch", requested_model: `replay:${second}` });
  // One session throughout: both hooks were told the same session id.
  expect(told.session_id).toBe(asked[0].session_id);
});
