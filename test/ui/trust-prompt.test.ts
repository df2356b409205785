// The workspace-trust question: a grant too long for the terminal (a hook's command) wraps under its
// own text, not back at the dialog's edge where it reads as a line of its own.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createElement } from "react";
import { beforeAll, expect, it } from "vitest";
import { inspectWorkspaceTrust } from "../../src/config/workspace-trust.js";
import { tempDir } from "../loop/helpers.js";

let render: typeof import("ink-testing-library").render;
let Box: typeof import("ink").Box;
let TrustPrompt: typeof import("../../src/ui/dialogs/TrustPrompt.js").TrustPrompt;
beforeAll(async () => {
  ({ render } = await import("ink-testing-library"));
  ({ Box } = await import("ink"));
  ({ TrustPrompt } = await import("../../src/ui/dialogs/TrustPrompt.js"));
});

it("wraps a long grant under its own text, inside the list's indent", () => {
  const folder = tempDir("warden-trust-prompt-");
  mkdirSync(join(folder, ".claude"));
  const command = "touch /tmp/a-rather-long-marker-file-name-for-the-session-start-hook";
  writeFileSync(
    join(folder, ".claude", "settings.json"),
    JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: "command", command }] }] } }),
  );
  const trust = inspectWorkspaceTrust(folder);
  const { lastFrame, unmount } = render(
    createElement(Box, { width: 60 }, createElement(TrustPrompt, { trust, onAnswer: () => undefined })),
  );
  const lines = (lastFrame() ?? "").replace(/\x1b\[[0-9;]*m/g, "").split("\n");
  unmount();
  const first = lines.findIndex((l) => l.includes(".claude/settings.json hooks"));
  const last = lines.findIndex((l) => l.includes("marker-file"));
  expect(first).toBeGreaterThan(-1);
  expect(last).toBeGreaterThan(first);
  // Inside the border and its padding ("│ "), every line of the grant starts at the list's indent.
  for (const line of lines.slice(first, last + 1)) expect(line).toMatch(/^│ {3}\S/);
});
