// The shape of checkBashCommandPermission's answers, as the permission engine consumes them,
// and the helpers the Bash tool uses (isReadOnlyCommand, splitBashCommand, suggestedBashPrefix).

import { mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  checkBashCommandPermission,
  isReadOnlyCommand,
  preloadBashAnalysis,
  suggestedBashPrefix,
} from "../../../src/permissions/bash/check.js";
import { suggestedPrefixOfText } from "../../../src/permissions/bash/suggestions.js";
import { splitBashCommand } from "../../../src/shell/analysis/index.js";
import { contextWith, decide, project } from "../../shell/helpers.js";

describe("deny", () => {
  it("names the rule, and wins over allow rules and findings", async () => {
    const result = await decide("ls && $'rm' -rf x", { allow: ["Bash(ls:*)", "Bash(rm:*)"], deny: ["Bash(rm:*)"] });
    expect(result.behavior).toBe("deny");
    if (result.behavior !== "deny") return;
    expect(result.decisionReason).toMatchObject({
      type: "rule",
      rule: { behavior: "deny", value: { toolName: "Bash", ruleContent: "rm:*" } },
    });
    expect(result.message).toContain("Bash(rm:*)");
  });

  it("matches prefixes on whole words only", async () => {
    expect((await decide("npm run test-evil", { deny: ["Bash(npm run test:*)"] })).behavior).not.toBe("deny");
    expect((await decide("npm run test -- --ci", { deny: ["Bash(npm run test:*)"] })).behavior).toBe("deny");
    expect((await decide("npm run test", { deny: ["Bash(npm run test)"] })).behavior).toBe("deny");
    expect((await decide("npm run test x", { deny: ["Bash(npm run test)"] })).behavior).not.toBe("deny");
  });

  it("denies a part found on a line the grammar could not finish", async () => {
    expect((await decide("rm -rf x\necho 'unterminated", { deny: ["Bash(rm:*)"] })).behavior).toBe("deny");
  });

  it("finds a denied command after a hundred harmless ones", async () => {
    const command = `${Array.from({ length: 120 }, () => "true").join("; ")}; rm -rf x`;
    expect((await decide(command, { deny: ["Bash(rm:*)"] })).behavior).toBe("deny");
  });
});

describe("limits", () => {
  it("asks without analysing a command too long to review (deny rules still hold), and survives deep nesting", async () => {
    const long = await decide(`echo ${"a".repeat(30_000)}`);
    expect(long.behavior).toBe("ask");
    expect(long.decisionReason?.type).toBe("safetyCheck");
    const padded = await decide(`echo ${"a".repeat(30_000)}; timeout 5 rm -rf x`, { deny: ["Bash(rm:*)"] });
    expect(padded.behavior).toBe("deny");
    const deep = await decide(`${"(".repeat(3000)}ls${")".repeat(3000)}`);
    expect(deep.behavior).not.toBe("allow");
    expect(deep.decisionReason).toMatchObject({
      type: "safetyCheck",
      reason: expect.stringContaining("nests more than"),
    });
    const deepDenied = await decide(`${"(".repeat(3000)}rm -rf x${")".repeat(3000)}`, { deny: ["Bash(rm:*)"] });
    expect(deepDenied.behavior).toBe("deny");
  });
});

describe("deep nesting", () => {
  it("is decided the same however warm the analysis is: past the depth limit it asks, in a script or in sh -c", async () => {
    const deep = (inner: string, depth: number) => `${"(".repeat(depth)}${inner}${")".repeat(depth)}`;
    // Whether thousands of levels exhausted the stack once depended on how warm V8's code was.
    for (let i = 0; i < 200; i++) await decide(`${deep("ls -la src | grep x", 40)}; git log --oneline | head`);
    for (const command of [deep("ls", 1500), `sh -c '${deep("ls", 1500)}'`, Array(1500).fill("ls").join(" && ")]) {
      const result = await decide(command);
      expect(result.behavior, command.slice(0, 40)).toBe("ask");
      expect(result.decisionReason).toMatchObject({
        type: "safetyCheck",
        reason: expect.stringContaining("nests more than 400"),
      });
    }
    // A hundred levels is still analysed, and read-only is still read-only.
    expect((await decide(deep("ls", 100))).behavior).toBe("allow");
    // Deny rules still hold past the limit.
    expect((await decide(deep("rm -rf x", 1500), { deny: ["Bash(rm:*)"] })).behavior).toBe("deny");
  });
});

describe("content ask rules", () => {
  it("ask with the rule as reason, so bypass mode cannot skip it", async () => {
    const result = await decide("git status && git push origin main", {
      allow: ["Bash(git push:*)"],
      ask: ["Bash(git push:*)"],
    });
    expect(result.behavior).toBe("ask");
    expect(result.decisionReason).toMatchObject({
      type: "rule",
      rule: { behavior: "ask", value: { ruleContent: "git push:*" } },
    });
    expect(result.behavior === "ask" ? result.suggestions?.[0] : undefined).toMatchObject({
      type: "addRules",
      rules: [{ ruleContent: "git status:*" }, { ruleContent: "git push:*" }],
    });
  });
});

describe("allow", () => {
  it("says read-only when no rule was needed", async () => {
    const result = await decide("git log --oneline | head -5");
    expect(result).toEqual({
      behavior: "allow",
      decisionReason: { type: "other", reason: "every part of the command is read-only" },
    });
  });

  it("names the allow rule when one was needed, through safe wrappers and env prefixes", async () => {
    const result = await decide("NODE_ENV=test timeout 60 npm test -- --ci && git status", {
      allow: ["Bash(npm test:*)"],
    });
    expect(result.behavior).toBe("allow");
    expect((await decide("env CI=1 npm test", { allow: ["Bash(npm test:*)"] })).behavior).toBe("allow");
    expect((await decide("env NODE_OPTIONS=--require=x npm test", { allow: ["Bash(npm test:*)"] })).behavior).not.toBe(
      "allow",
    );
    expect((await decide("NODE_OPTIONS=--inspect npm test", { allow: ["Bash(npm test:*)"] })).behavior).not.toBe(
      "allow",
    );
    expect(
      (await decide("NODE_OPTIONS=--inspect npm test", { allow: ["Bash(NODE_OPTIONS=--inspect npm test:*)"] }))
        .behavior,
    ).toBe("allow");
    expect(result.decisionReason).toMatchObject({ type: "rule", rule: { value: { ruleContent: "npm test:*" } } });
  });

  it("does not let an allow rule through sudo, xargs or a shell", async () => {
    for (const command of ["sudo npm test", "ls | xargs npm test", "sh -c 'npm test'"]) {
      expect((await decide(command, { allow: ["Bash(npm test:*)"] })).behavior, command).not.toBe("allow");
    }
  });

  it("keeps path constraints under allow rules: outside paths and commands run after cd elsewhere ask", async () => {
    const rules = { allow: ["Bash(cd:*)", "Bash(cat:*)", "Bash(npm test:*)"] };
    expect((await decide("cat /etc/hosts", rules)).behavior).not.toBe("allow");
    expect((await decide("cd ~/.ssh && cat id_rsa", rules)).behavior).not.toBe("allow");
    expect((await decide("cd /tmp && npm test", rules)).behavior).not.toBe("allow");
    expect((await decide("cd src && npm test", rules)).behavior).toBe("allow");
  });

  it("does not let a sed allow rule cover sed's write and execute commands", async () => {
    expect((await decide("sed -n '1p;w out' a.txt", { allow: ["Bash(sed -n:*)"] })).behavior).not.toBe("allow");
    expect((await decide("sed -n '1p' a.txt", { allow: ["Bash(sed -n:*)"] })).behavior).toBe("allow");
  });
});

describe("safety findings", () => {
  it("ask with a safetyCheck reason naming the check", async () => {
    const result = await decide("ls src#1", { allow: ["Bash(ls:*)"] });
    expect(result.behavior).toBe("ask");
    expect(result.decisionReason).toMatchObject({ type: "safetyCheck" });
    if (result.decisionReason?.type === "safetyCheck") expect(result.decisionReason.reason).toContain("check 19");
  });

  it("ask for writes to protected paths even with an allow rule", async () => {
    for (const command of [
      "echo x > .git/hooks/pre-commit",
      "npm run build > ~/.bashrc",
      "cp x .claude/settings.json",
      "cd .warden && tee settings.json < x",
      "sed -i s/a/b/ .vscode/settings.json",
      "dd if=x of=.git/config",
      "tar -xf x.tar -C .git",
      "unzip x.zip -d .claude",
      "cd .git && tar -xf ../x.tar",
      "patch .git/config < x.diff",
      // $HOME and $PWD spellings of the same places.
      "cp x $HOME/.bashrc",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
      'tee -a "${HOME}/.zshrc" < x',
      "cp x $PWD/.git/hooks/pre-commit",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
      "cp x ${PWD}/.claude/settings.json",
    ]) {
      const result = await decide(command, {
        allow: ["Bash(echo:*)", "Bash(npm run:*)", "Bash(cp:*)", "Bash(tee:*)", "Bash(sed:*)", "Bash(dd:*)"],
      });
      expect(result.behavior, command).toBe("ask");
      expect(result.decisionReason?.type, command).toBe("safetyCheck");
    }
  });
});

describe("symlinks", () => {
  it("follow links: a link inside the project to a protected or outside place counts as that place", async () => {
    const root = mkdtempSync(join(tmpdir(), "warden-shell-links-"));
    mkdirSync(join(root, ".git", "hooks"), { recursive: true });
    symlinkSync(join(root, ".git", "hooks"), join(root, "hooks"));
    symlinkSync("/etc", join(root, "etc-link"));
    const check = (command: string) =>
      checkBashCommandPermission({
        command,
        cwd: root,
        permissionContext: { ...contextWith(), workingDirectories: [root] },
      });
    const write = await check("echo x > hooks/pre-commit");
    expect(write.behavior).toBe("ask");
    expect(write.decisionReason?.type).toBe("safetyCheck");
    expect((await check("cat etc-link/hostname")).behavior).toBe("passthrough");
    expect((await check("cat hooks/pre-commit.sample")).behavior).toBe("allow");
  });
});

describe("globs into protected places", () => {
  it("ask for a write whose glob matches a protected place, with an allow rule and in bypass mode", async () => {
    const root = mkdtempSync(join(tmpdir(), "warden-shell-globs-"));
    mkdirSync(join(root, ".git", "hooks"), { recursive: true });
    mkdirSync(join(root, ".claude"));
    mkdirSync(join(root, "src"));
    const check = (command: string, mode: "default" | "bypassPermissions") =>
      checkBashCommandPermission({
        command,
        cwd: root,
        permissionContext: {
          ...contextWith({ allow: ["Bash(echo:*)", "Bash(cp:*)", "Bash(tee:*)"] }),
          workingDirectories: [root],
          mode,
        },
      });
    for (const command of [
      "echo x > .g?t/config",
      "cp x .g[i]t/hooks/pre-commit",
      "tee .gi*/hooks/post-checkout < x",
      "cp x .clau*/settings.json",
    ]) {
      for (const mode of ["default", "bypassPermissions"] as const) {
        const result = await check(command, mode);
        expect(result.behavior, `${command} (${mode})`).toBe("ask");
        expect(result.decisionReason?.type, command).toBe("safetyCheck");
      }
    }
    expect((await check("cp x src/*", "bypassPermissions")).behavior).not.toBe("ask");
  });
});

describe("passthrough", () => {
  it("offers a package script's rule by the script's name, which then allows that script and no other", async () => {
    const offered = await decide("npm run build -- --prod");
    const rule = offered.behavior === "passthrough" ? offered.suggestions?.[0] : undefined;
    expect(rule).toMatchObject({ rules: [{ toolName: "Bash", ruleContent: "npm run build:*" }] });
    expect((await decide("npm run build", { allow: ["Bash(npm run build:*)"] })).behavior).toBe("allow");
    expect((await decide("npm run deploy", { allow: ["Bash(npm run build:*)"] })).behavior).not.toBe("allow");
    // A name known only at run time: no prefix can say which script runs.
    const unknown = await decide('npm run "$TASK"');
    const offeredForUnknown = unknown.behavior === "passthrough" ? (unknown.suggestions ?? []) : [];
    expect(JSON.stringify(offeredForUnknown)).not.toContain("npm run:*");
  });

  it("leaves ordinary changes to the engine, with a two-word prefix suggestion", async () => {
    const result = await decide("npm run build");
    expect(result.behavior).toBe("passthrough");
    if (result.behavior !== "passthrough") return;
    expect(result.suggestions).toEqual([
      {
        type: "addRules",
        behavior: "allow",
        rules: [{ toolName: "Bash", ruleContent: "npm run build:*" }],
        destination: "localSettings",
      },
    ]);
  });

  it("suggests a rule for each part that needs one, never a shell, sudo, env, xargs or eval prefix (their exact command)", async () => {
    const both = await decide("git add -A && git commit -m x");
    expect(
      both.behavior === "passthrough" && both.suggestions?.[0]?.type === "addRules" ? both.suggestions[0].rules : [],
    ).toEqual([
      { toolName: "Bash", ruleContent: "git add:*" },
      { toolName: "Bash", ruleContent: "git commit:*" },
    ]);
    // A wrapper or interpreter gets its exact command only (what the person was shown).
    const rulesOf = async (command: string) => {
      const result = await decide(command);
      return result.behavior === "passthrough" && result.suggestions?.[0]?.type === "addRules"
        ? result.suggestions[0].rules
        : undefined;
    };
    expect(await rulesOf("sudo make install")).toEqual([{ toolName: "Bash", ruleContent: "sudo make install" }]);
    expect(await rulesOf("env make")).toEqual([{ toolName: "Bash", ruleContent: "env make" }]);
    expect(await rulesOf("node --test test/")).toEqual([{ toolName: "Bash", ruleContent: "node --test test/" }]);
    expect(await rulesOf("npx vitest run 'a b.test.ts'")).toEqual([
      { toolName: "Bash", ruleContent: "npx vitest run 'a b.test.ts'" },
    ]);
    // A program that deletes, overwrites or kills whatever it is given: its exact command, never
    // `rm:*` (every deletion from then on).
    expect(await rulesOf("rm -rf build")).toEqual([{ toolName: "Bash", ruleContent: "rm -rf build" }]);
    expect(await rulesOf("mv notes.txt old.txt")).toEqual([{ toolName: "Bash", ruleContent: "mv notes.txt old.txt" }]);
    expect(await rulesOf("chmod -R 777 src")).toEqual([{ toolName: "Bash", ruleContent: "chmod -R 777 src" }]);
    expect(suggestedPrefixOfText("rm -rf build")).toBeUndefined();
    // None where no rule holds what runs: input fed to xargs, a nested script, a script file.
    for (const command of ["ls | xargs touch", "eval make", "bash build.sh", "sh -c make"]) {
      const result = await decide(command);
      expect(result.behavior === "passthrough" ? result.suggestions : undefined, command).toBeUndefined();
    }
  });

  it("offers the folder, never a rule, for a command held back by a place outside the working directories", async () => {
    const outside = mkdtempSync(join(tmpdir(), "warden-outside-"));
    mkdirSync(join(outside, "sub"));
    for (const command of [
      `cat ${outside}/notes.txt`,
      `ls ${outside}`,
      `cd ${outside} && ls`,
      `wc -l < ${outside}/x`,
    ]) {
      const result = await decide(command);
      expect(result.behavior, command).toBe("passthrough");
      if (result.behavior !== "passthrough") return;
      expect(result.suggestions, command).toEqual([
        { type: "addDirectories", directories: [outside], destination: "session" },
      ]);
      // The rule the old suggestion offered does not stop the question: only the folder does.
      expect(
        (await decide(command, { allow: ["Bash(cat:*)", "Bash(ls:*)", "Bash(cd:*)", "Bash(wc:*)"] })).behavior,
      ).toBe("passthrough");
      const added = await checkBashCommandPermission({
        command,
        cwd: project,
        permissionContext: contextWith({}, [project, outside]),
      });
      expect(added.behavior, command).toBe("allow");
    }
    // A part that needs a rule keeps its rule beside the folder.
    const mixed = await decide(`npm run build && cat ${outside}/sub/log`);
    expect(mixed.behavior === "passthrough" ? mixed.suggestions : undefined).toEqual([
      {
        type: "addRules",
        behavior: "allow",
        rules: [{ toolName: "Bash", ruleContent: "npm run build:*" }],
        destination: "localSettings",
      },
      { type: "addDirectories", directories: [join(outside, "sub")], destination: "session" },
    ]);
    // A place known only at run time: nothing offered would stop the question.
    const unknown = await decide('cd "$TARGET" && ls');
    expect(unknown.behavior === "passthrough" ? unknown.suggestions : "not passthrough").toBeUndefined();
    // Never the filesystem's root: one answer would let every path in.
    for (const command of ["cat /warden-no-such-file", "ls /"]) {
      const top = await decide(command);
      expect(top.behavior, command).toBe("passthrough");
      const offered = top.behavior === "passthrough" ? (top.suggestions ?? []) : [];
      expect(
        offered.filter((s) => s.type === "addDirectories"),
        command,
      ).toEqual([]);
    }
  });

  it("offers a rule for the first line of a multi-line command only", async () => {
    const result = await decide("npm run build\nnpm publish");
    expect(
      result.behavior === "passthrough" && result.suggestions?.[0]?.type === "addRules"
        ? result.suggestions[0].rules
        : [],
    ).toEqual([{ toolName: "Bash", ruleContent: "npm run build:*" }]);
  });

  it("ask for a newline-separated second command even when each line is allowed", async () => {
    expect((await decide("git status\ngit status", { allow: ["Bash(git status:*)"] })).behavior).toBe("passthrough");
  });
});

describe("helpers for the Bash tool", () => {
  it("isReadOnlyCommand answers synchronously once the grammar is loaded", async () => {
    await preloadBashAnalysis();
    expect(isReadOnlyCommand("git status && ls -la", project)).toBe(true);
    expect(isReadOnlyCommand("ls > out.txt", project)).toBe(false);
    expect(isReadOnlyCommand("rm -rf x", project)).toBe(false);
    expect(isReadOnlyCommand("echo $(rm x)", project)).toBe(false);
  });

  it("splitBashCommand lists the simple commands in run order", async () => {
    expect(await splitBashCommand("cd src && (ls; cat a) | wc -l || echo none", project)).toEqual([
      "cd src",
      "ls",
      "cat a",
      "wc -l",
      "echo none",
    ]);
  });

  it("suggests prefixes from the first line and before a heredoc", async () => {
    expect(await suggestedBashPrefix("git commit -m x", project)).toBe("git commit");
    expect(await suggestedBashPrefix("sudo rm x", project)).toBeUndefined();
    expect(suggestedPrefixOfText("npm run build\nrm -rf x")).toBe("npm run build");
    expect(suggestedPrefixOfText("cat > notes.txt <<'EOF'\nx\nEOF")).toBe("cat");
    expect(suggestedPrefixOfText("NODE_ENV=test npm test")).toBe("npm test");
    expect(suggestedPrefixOfText("xargs rm")).toBeUndefined();
  });
});
