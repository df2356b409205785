// The permission dialog's option 2 ("Yes, and don't ask again for ...") with its destination after
// it: a suggestion to switch the mode said "this session" twice
// ("... for edits this session (mode acceptEdits) (in this session only)").
import { expect, it } from "vitest";
import type { PermissionUpdate } from "../../src/tool/permission-types.js";
import { destinationLabel, suggestionLabel } from "../../src/ui/dialogs/PermissionPrompt.js";

function optionTwo(update: PermissionUpdate): string {
  return `Yes, and don't ask again for ${suggestionLabel(update, "")} (in ${destinationLabel(update, "/tmp/project")})`;
}

it("names a mode switch once, and the session once", () => {
  const text = optionTwo({ type: "setMode", mode: "acceptEdits", destination: "session" });
  expect(text).toBe("Yes, and don't ask again for edits: switch to acceptEdits mode (in this session only)");
  expect(text.match(/session/g)).toHaveLength(1);
});

it("names a rule and the settings file it goes to", () => {
  const update: PermissionUpdate = {
    type: "addRules",
    behavior: "allow",
    rules: [{ toolName: "Bash", ruleContent: "touch:*" }],
    destination: "localSettings",
  };
  expect(suggestionLabel(update, "Bash(touch:*)")).toBe("Bash(touch:*)");
  expect(destinationLabel(update, "/tmp/project")).toBe(".warden/settings.local.json");
});
