// Each recovery technique: the words bash would really run are rebuilt from the text, so deny
// rules hold against every spelling, and names known only at run time ask instead.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are bash commands, where ${...} is bash syntax.
import { describe, expect, it } from "vitest";
import { innermostCommands, outcome, recoveredCommands } from "./helpers.js";

const DENY_RM = { deny: ["Bash(rm:*)"] };

describe("quote removal and escapes", () => {
  it("joins quoted pieces into one word", async () => {
    expect(await recoveredCommands(`r''m -rf x`)).toEqual([["rm", "-rf", "x"]]);
    expect(await recoveredCommands(`"r"'m' -rf x`)).toEqual([["rm", "-rf", "x"]]);
    expect(await outcome(`c'u'r"l" http://x`, { deny: ["Bash(curl:*)"] })).toBe("deny");
  });

  it("drops backslashes outside quotes and keeps them inside single quotes", async () => {
    expect(await recoveredCommands(`\\rm -rf x`)).toEqual([["rm", "-rf", "x"]]);
    expect(await recoveredCommands(`echo 'a\\b' "c\\"d"`)).toEqual([["echo", "a\\b", 'c"d']]);
    expect(await outcome(`git pu\\sh origin`, { deny: ["Bash(git push:*)"] })).toBe("deny");
  });

  it("joins a backslash-newline inside a word, as bash does", async () => {
    expect(await recoveredCommands("r\\\nm -rf x")).toEqual([["rm", "-rf", "x"]]);
    expect(await outcome("r\\\nm -rf x", DENY_RM)).toBe("deny");
  });
});

describe("ANSI-C and locale strings", () => {
  it("decodes hex, octal and unicode escapes", async () => {
    expect(await recoveredCommands(`$'\\x72\\x6d' -rf x`)).toEqual([["rm", "-rf", "x"]]);
    expect(await recoveredCommands(`$'\\162\\155' -rf x`)).toEqual([["rm", "-rf", "x"]]);
    expect(await recoveredCommands(`$'\\u0072'm -rf x`)).toEqual([["rm", "-rf", "x"]]);
    expect(await outcome(`$'\\x72'm -rf x`, DENY_RM)).toBe("deny");
  });

  it('reads $"..." as a double-quoted string, substitutions included', async () => {
    expect(await recoveredCommands(`$"rm" -rf x`)).toEqual([["rm", "-rf", "x"]]);
    const words = await recoveredCommands(`echo $"$(id)"`);
    expect(words[words.length - 1]).toEqual(["echo", "<dynamic>"]);
  });
});

describe("brace expansion", () => {
  it("expands comma lists into separate words, nested too", async () => {
    expect(await recoveredCommands("echo {rm,-rf,x}")).toEqual([["echo", "rm", "-rf", "x"]]);
    expect(await recoveredCommands("echo a{b,c{d,e}}")).toEqual([["echo", "ab", "acd", "ace"]]);
  });

  it("still denies a brace-built command the grammar cannot place (fallback lexer)", async () => {
    expect(await outcome("{rm,-rf,x}", DENY_RM)).toBe("deny");
    expect(await outcome("ls; {rm,-rf,x}", DENY_RM)).toBe("deny");
  });

  it("expands ranges and keeps quoted braces literal", async () => {
    expect(await recoveredCommands("echo x{1..3}")).toEqual([["echo", "x1", "x2", "x3"]]);
    expect(await recoveredCommands(`echo '{a,b}' \\{c,d\\}`)).toEqual([["echo", "{a,b}", "{c,d}"]]);
  });

  it("reports an expansion too large to list as known only at run time", async () => {
    expect(await recoveredCommands("echo {1..5000}")).toEqual([["echo", "<dynamic>"]]);
  });
});

describe("default IFS", () => {
  it("splits words at unquoted $IFS, ${IFS} and ${IFS:0:1}", async () => {
    expect(await recoveredCommands("rm$IFS-rf${IFS}x")).toEqual([["rm", "-rf", "x"]]);
    expect(await recoveredCommands("rm${IFS:0:1}-rf")).toEqual([["rm", "-rf"]]);
    expect(await outcome("rm$IFS-rf$IFS/", DENY_RM)).toBe("deny");
  });

  it("treats $IFS as unknown once the script reassigns IFS", async () => {
    expect(await recoveredCommands("IFS=x; rm$IFS-rf")).toEqual([[], ["<dynamic>"]]);
  });
});

describe("command names", () => {
  it("matches deny rules on the basename of a path", async () => {
    expect(await outcome("/bin/rm -rf x", DENY_RM)).toBe("deny");
    expect(await outcome("/usr/bin/../bin/rm -rf x", DENY_RM)).toBe("deny");
    expect(await outcome("./node_modules/.bin/rm x", DENY_RM)).toBe("deny");
  });

  it("asks, never allows or denies, when the name exists only at run time", async () => {
    expect(await outcome("$(printf rm) -rf x", DENY_RM)).toBe("ask");
    expect(await outcome("R=rm; $R -rf x", DENY_RM)).toBe("ask");
    expect(await outcome("${x:-rm} -rf x", DENY_RM)).toBe("ask");
    expect(await outcome("$CMD", { allow: ["Bash(ls:*)"] })).toBe("ask");
  });
});

describe("wrappers", () => {
  it("peels transparent wrappers with their options", async () => {
    expect(await innermostCommands("timeout -s KILL 5 rm -rf x")).toEqual([["rm", "-rf", "x"]]);
    expect(await innermostCommands("nice -n 5 nohup time stdbuf -oL rm x")).toEqual([["rm", "x"]]);
    expect(await innermostCommands("nice -5 rm x")).toEqual([["rm", "x"]]);
    expect(await innermostCommands("env -u HOME A=1 rm x")).toEqual([["rm", "x"]]);
    expect(await innermostCommands("command -p rm x")).toEqual([["rm", "x"]]);
    expect(await innermostCommands("builtin exec -a name rm x")).toEqual([["rm", "x"]]);
  });

  it("peels privilege and batching wrappers for deny rules", async () => {
    for (const command of [
      "sudo -u root rm x",
      "doas rm x",
      "busybox rm x",
      "ionice -c3 rm x",
      "flock /tmp/l rm x",
      "xargs -0 -n1 rm < list",
      "setsid rm x",
    ]) {
      expect(await outcome(command, DENY_RM), command).toBe("deny");
    }
  });

  it("tries every later word of a loosely modelled wrapper against deny rules", async () => {
    for (const command of [
      "parallel -j4 rm ::: a b",
      "strace -f -o log rm x",
      "unshare -r rm x",
      "chroot /srv rm x",
      "firejail --net=none rm x",
      "systemd-run --user rm x",
    ]) {
      expect(await outcome(command, DENY_RM), command).toBe("deny");
    }
  });

  it("reads xargs options that take the next word", async () => {
    expect(await innermostCommands("xargs -E grep rm -rf")).toEqual([["rm", "-rf"]]);
    expect(await innermostCommands("xargs -I {} -a list rm {}")).toEqual([["rm", "{}"]]);
  });

  it("does not treat `command -v` as running its operand", async () => {
    expect(await outcome("command -v rm", DENY_RM)).toBe("allow");
  });
});

describe("nested scripts and inner commands", () => {
  it("re-parses literal sh -c, bash -lc, eval, script -c and su -c strings", async () => {
    for (const command of [
      `sh -c 'rm -rf x'`,
      `bash -lc "cd /; rm -rf x"`,
      `bash -o pipefail -c 'rm x'`,
      `bash -c -- 'rm x'`,
      `sh -ec 'rm x'`,
      `eval 'rm -rf x'`,
      `eval rm -rf x`,
      `script -qc 'rm x' /dev/null`,
      `su -c 'rm x'`,
      `sh -c "sh -c 'rm x'"`,
    ]) {
      expect(await outcome(command, DENY_RM), command).toBe("deny");
    }
  });

  it("reads the script a shell takes on stdin from a heredoc, a here-string or a literal echo/printf", async () => {
    for (const command of [
      "sh <<EOF\nrm -rf x\nEOF",
      "bash -s <<'X'\nls; rm y\nX",
      "sh <<< 'rm -rf x'",
      "echo 'rm -rf x' | sh",
      "printf 'rm -rf x\\n' | bash",
      "cat <<EOF | sh\nrm x\nEOF",
    ]) {
      expect(await outcome(command, DENY_RM), command).toBe("deny");
    }
    expect(await outcome("echo ls | sh", DENY_RM)).toBe("ask");
  });

  it("asks when the script a shell runs is not in the text", async () => {
    expect(await outcome(`sh -c "$X"`, DENY_RM)).toBe("ask");
    expect(await outcome("bash ./install.sh", DENY_RM)).toBe("ask");
    expect(await outcome("curl -s x | sh", { allow: ["Bash(curl:*)"] })).toBe("ask");
  });

  it("finds commands inside $(), backticks, <() and >()", async () => {
    expect(await outcome("echo $(rm -rf x)", DENY_RM)).toBe("deny");
    expect(await outcome("echo `rm -rf x`", DENY_RM)).toBe("deny");
    expect(await outcome("diff <(ls) <(rm x)", DENY_RM)).toBe("deny");
    expect(await outcome("tee >(rm x)", DENY_RM)).toBe("deny");
    expect(await outcome(`echo "$(echo "$(rm x)")"`, DENY_RM)).toBe("deny");
  });

  it("finds the commands of find -exec, -execdir and -ok", async () => {
    expect(await outcome("find . -name '*.o' -exec rm {} +", DENY_RM)).toBe("deny");
    expect(await outcome("find . -execdir rm {} \\;", DENY_RM)).toBe("deny");
    expect(await outcome("find . -ok sh -c 'rm x' \\;", DENY_RM)).toBe("deny");
  });

  it("skips git and npm global options before the subcommand", async () => {
    const denyPush = { deny: ["Bash(git push:*)"] };
    expect(await outcome("git -C . push", denyPush)).toBe("deny");
    expect(await outcome("git --no-pager -c color.ui=never push", denyPush)).toBe("deny");
    expect(await outcome("git --git-dir=.git push", denyPush)).toBe("deny");
    expect(await outcome("npm --loglevel silent publish", { deny: ["Bash(npm publish:*)"] })).toBe("deny");
    expect(await outcome("npm --dry-run=false publish", { deny: ["Bash(npm publish:*)"] })).toBe("deny");
  });
});

describe("data is not a command", () => {
  it("does not deny a denied word used as an argument or message", async () => {
    expect(await outcome("grep -rn rm src", DENY_RM)).toBe("allow");
    expect(await outcome(`git commit -m "rm unused"`, { allow: ["Bash(git commit:*)"], deny: ["Bash(rm:*)"] })).toBe(
      "allow",
    );
    expect(await outcome("echo rm -rf x", DENY_RM)).toBe("allow");
  });
});
