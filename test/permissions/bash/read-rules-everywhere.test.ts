// A Read deny rule holds for every program that reads a file, with the shell otherwise allowed
// outright (`Bash`): pagers, editors, archivers, dd, `source`, interpreters whose inline program
// names the file, globs expanded to what they reach now, `..`, `$PWD`, `~+` and symlinks. What
// reads files the text does not name (a folder whole, `find -exec`, xargs, a variable, a script)
// asks while a read rule is in force; reads elsewhere are as they were.
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { checkBashCommandPermission } from "../../../src/permissions/bash/check.js";
import { contextWith, project } from "../../shell/helpers.js";

interface Rules {
  allow: string[];
  deny: string[];
}

const rules: Rules = { allow: ["Bash"], deny: ["Read(./vault/**)", "Read(./.env)"] };

/**
 * The Bash check's own answer with `Read(...)` deny rules: deny, ask (bypass-proof: the `Bash`
 * allow rule does not lift it), allow, or passthrough (which the `Bash` allow rule then allows).
 */
async function outcome(command: string, { allow, deny }: Rules): Promise<string> {
  const base = contextWith({ allow });
  const pathRule = (text: string) => {
    const [, toolName = "", ruleContent = ""] = /^(\w+)\((.*)\)$/.exec(text) ?? [];
    return { source: "session" as const, behavior: "deny" as const, value: { toolName, ruleContent } };
  };
  const permissionContext = { ...base, rules: { ...base.rules, deny: deny.map(pathRule) } };
  const result = await checkBashCommandPermission({ command, cwd: project, permissionContext });
  return result.behavior;
}

beforeAll(() => {
  mkdirSync(join(project, "vault"), { recursive: true });
  mkdirSync(join(project, "src", "deep"), { recursive: true });
  mkdirSync(join(project, "linked"), { recursive: true });
  mkdirSync(join(project, "plain"), { recursive: true });
  writeFileSync(join(project, "vault", "token.txt"), "s3cret\n");
  writeFileSync(join(project, ".env"), "PASSWORD=x\n");
  writeFileSync(join(project, "src", "main.ts"), "export {};\n");
  writeFileSync(join(project, "plain", "notes.md"), "notes\n");
  symlinkSync(join(project, "vault", "token.txt"), join(project, "linked", "innocent.txt"));
});

describe("a Read deny rule with the shell allowed outright", () => {
  it("denies every program that reads the file, however the path is spelled", async () => {
    for (const command of [
      "less .env",
      "less -R vault/token.txt",
      "more .env",
      "most .env",
      "bat --plain .env",
      "vim -R .env",
      "view vault/token.txt",
      "nano .env",
      "timeout 5 less .env",
      "sudo more .env",
      "tar -tf vault/token.txt",
      "tar czf /tmp/out.tgz vault",
      "dd if=.env",
      "source .env",
      ". .env",
      "iconv -f utf8 .env",
      "yq . vault/token.txt",
      "pr .env",
      "split .env /tmp/part",
      "cat src/../vault/token.txt",
      "cat ./vault//token.txt",
      'cat "$PWD/.env"',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
      "head ${PWD}/vault/token.txt",
      "cat ~+/.env",
      "cat linked/innocent.txt",
      "cat vau*/*",
      "head vault/*.txt",
      "cat .en?",
      "cat .[e]nv",
      "wc -l linked/*",
      "python3 -c 'print(open(\".env\").read())'",
      'node -e \'require("fs").readFileSync("vault/token.txt")\'',
      "perl -ne print .env",
    ]) {
      expect(await outcome(command, rules), command).toBe("deny");
    }
  });

  it("asks where the files read are not named: folders read whole, find -exec, xargs, variables, scripts", async () => {
    for (const command of [
      "tar cf - .",
      "zip -r /tmp/out.zip .",
      "cp -r . /tmp/copy",
      "find . -exec cat {} +",
      "find -name '*.txt' -exec cat {} ;",
      "find . -type f | xargs cat",
      "xargs cat < list.txt",
      'for f in vault/*; do cat "$f"; done',
      "f=.env; cat $f",
      'less "$FILE"',
      "python3 script.py",
      "grep -r PASSWORD linked",
      "rg -L token linked",
      "tar chf - linked",
    ]) {
      expect(await outcome(command, rules), command).toBe("ask");
    }
  });

  it("leaves reads elsewhere as they were", async () => {
    const narrow = { allow: ["Bash"], deny: ["Read(./vault/**)"] };
    for (const command of [
      "bat src/main.ts",
      "tar -tf /tmp/other.tar",
      "cat src/*.ts",
      "grep -r export src",
      "find src -type f",
      "tar czf /tmp/out.tgz src",
      "dd if=src/main.ts of=/dev/null",
      "nano plain/notes.md",
    ]) {
      expect(["allow", "passthrough"], command).toContain(await outcome(command, narrow));
    }
  });
});
