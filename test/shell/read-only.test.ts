// Read-only classification with no rules: listed commands with only harmless flags are allowed,
// any writing or executing flag (in any spelling) makes them ask, and paths outside the working
// directories ask.
import { describe, expect, it } from "vitest";
import { analyzeCommand } from "../../src/shell/analysis/index.js";
import { decide, outcome, project } from "./helpers.js";

async function expectAllowed(commands: string[]): Promise<void> {
  for (const command of commands) expect(await outcome(command), command).toBe("allow");
}

async function expectAsked(commands: string[]): Promise<void> {
  for (const command of commands) expect(await outcome(command), command).toBe("ask");
}

describe("read, search and list commands", () => {
  it("allows them with harmless flags, alone or in pipelines and lists", async () => {
    await expectAllowed([
      "ls -la src",
      "cat -n README.md | head -20",
      "grep -rn --include='*.ts' TODO src",
      "rg -n 'a|b' -g '*.md'",
      "wc -l a.txt; wc -l b.txt",
      "test -f .env || echo missing",
      "[ -d src ] && ls src",
      "[[ -n x ]]",
      "find . -name '*.ts' -not -path './node_modules/*'",
      "du -sh * | sort -h",
      "echo hello > /dev/null 2>&1",
      "pwd; id; date +%F",
      "command -v node",
      "python3 --version",
      "cd src && ls",
    ]);
  });

  it("asks for commands that are not on the list", async () => {
    await expectAsked([
      "touch x",
      "npm install",
      "curl https://example.com",
      "env",
      "printenv HOME",
      "less README.md",
      "man ls",
      "tar -tf a.tar",
      "source x.sh",
    ]);
  });
});

describe("flag-level allowlists", () => {
  it("find without actions", async () => {
    await expectAllowed(["find src -type f -name '*.ts'"]);
    await expectAsked([
      "find . -delete",
      "find . -exec cat {} \\;",
      "find . -execdir ls \\;",
      "find . -ok ls \\;",
      "find . -fprint out",
      "find . -fls out",
      "find . -fprintf out %p",
    ]);
  });

  it("sed without in-place, write, execute or script files", async () => {
    await expectAllowed([
      "sed -n '1,5p' a.txt",
      "sed -E 's/a+/b/g' a.txt",
      "sed -n -e '/x/p' -e '$p' a.txt",
      "sed --sandbox 's/a/b/w x' a.txt",
    ]);
    await expectAsked([
      "sed -i 's/a/b/' a.txt",
      "sed -ibak 's/a/b/' a.txt",
      "sed -ni 's/a/b/p' a.txt",
      "sed --in-place 's/a/b/' a.txt",
      "sed --in-pl 's/a/b/' a.txt",
      "sed 's/a/b/w out' a.txt",
      "sed 's/a/b/e' a.txt",
      "sed '1e id' a.txt",
      "sed 'W out' a.txt",
      "sed -f script.sed a.txt",
      "sed 'r /etc/passwd' a.txt",
      "sed -es/a/b/e a.txt",
    ]);
  });

  it("sort, uniq, xxd, tree, base64, ps and printf without their writing or secret-printing forms", async () => {
    await expectAllowed([
      "sort -rn -k2 a.txt",
      "uniq -c a.txt",
      "xxd a.bin",
      "tree -L 2",
      "printf '%s\\n' a",
      "base64 -w0 a.txt",
      "base64 -i a.txt",
      "hexdump -C a.bin",
      "ps aux",
      "ps -ef",
    ]);
    await expectAsked([
      "sort -o out a.txt",
      "sort -uo out a.txt",
      "sort --output=out a.txt",
      "sort --outp=out a.txt",
      "sort --compress-program=gzip a.txt",
      "uniq a.txt out.txt",
      "xxd -r a.hex",
      "xxd a.bin out.bin",
      "tree -o out.txt",
      "printf -v X %s 1",
      // macOS base64 writes its output file with -o, and reads -i's; hexdump -f reads a format file.
      "base64 a.txt -o out.txt",
      "base64 -i a.txt -oout.txt",
      "base64 --output=out.txt a.txt",
      "base64 -i /etc/passwd",
      "hexdump -f /etc/passwd a.bin",
      // Process environments hold secrets: BSD-style `e`, and macOS -E.
      "ps auxe",
      "ps -E",
      "ps -axE",
    ]);
  });

  it("rg and grep without preprocessors", async () => {
    await expectAsked([
      "rg --pre=cat x",
      "rg --pr cat x",
      "rg --pre cat x",
      "rg --hostname-bin=sh x",
      "sort --o=out a.txt",
    ]);
  });

  it("git read-only subcommands with read-only arguments", async () => {
    await expectAllowed([
      "git status",
      "git log --oneline -5",
      "git diff --stat HEAD~1",
      "git branch -a",
      "git branch --list 'feat*'",
      "git tag -l",
      "git remote -v",
      "git config --get user.name",
      "git config get user.email",
      "git config --local --list",
      "git config --local --get-regexp '^remote'",
      "git stash list",
      "git -C . status",
      "git --no-pager log -1",
    ]);
    await expectAsked([
      "git push",
      "git branch new",
      "git branch -D old",
      "git tag v1",
      "git remote add x y",
      "git config user.name x",
      // Everything in ~/.gitconfig at once (a token in http.extraHeader, a url's insteadOf).
      "git config --list",
      "git config -l --show-origin",
      "git config --global --list",
      "git config --get-regexp 'http.*'",
      "git config list",
      "git config get --all --regexp 'url'",
      "git stash",
      "git -c core.pager=cat log",
      "git -p log",
      "git --git-dir=/tmp/x/.git log",
      "git diff --output=out",
      "git diff --ext-diff",
      "git log --outp=out",
      "git grep -O TODO",
      "git ls-remote --upload-pack=x .",
      "git cat-file --textconv HEAD:x",
      "git diff *",
      "git -C /etc log",
    ]);
  });

  it("jq without code loading or environment access", async () => {
    await expectAllowed(["jq -r .name package.json", "jq --arg n x '.[] | select(.n == $n)' a.json", "jq -n '1 + 1'"]);
    await expectAsked([
      "jq -f prog.jq a.json",
      "jq --from-file prog.jq",
      "jq -L lib . a.json",
      "jq -n env",
      "jq -n '$ENV.HOME'",
      "jq -n 'import \"x\" as x; 1'",
      "jq --rawfile a /etc/passwd -n '$a'",
    ]);
  });

  it("awk without system, pipes, redirection, getline or ENVIRON", async () => {
    await expectAllowed(["awk '{print $1}' a.txt", "awk -F, '{s+=$2} END {print s}' a.csv"]);
    await expectAsked([
      `awk 'BEGIN{system("id")}'`,
      `awk '{print | "sh"}'`,
      `awk '{print > "out"}' a`,
      `awk 'BEGIN{"id" | getline x}'`,
      "awk 'BEGIN{print ENVIRON[\"HOME\"]}'",
      "awk -f prog.awk a",
      "awk '{@f()}' a",
    ]);
  });

  it("xargs only into commands whose every flag is harmless", async () => {
    await expectAllowed(["ls | xargs wc -l", "find . -name '*.ts' | xargs grep -l x"]);
    await expectAsked(["ls | xargs rm", "ls | xargs sort", "ls | xargs -a list cat", "ls | xargs sh -c 'cat $0'"]);
  });

  it("xargs only from producers of file names under the searched directory", async () => {
    await expectAllowed(["git ls-files | xargs wc -l", "rg -l TODO | xargs head -1", "grep -rl x src | xargs wc -c"]);
    await expectAsked(["echo ~/.ssh/id_rsa | xargs cat", "xargs cat < list.txt", "cat list.txt | xargs grep secret"]);
  });

  it("date and hostname without setting the clock or name", async () => {
    await expectAllowed(["date -u +%s", "hostname"]);
    await expectAsked(["date -s '2001-01-01'", "date 010100002001", "hostname evil"]);
  });

  it("globs that could expand into flags, only where a flag would be dangerous", async () => {
    await expectAllowed(["ls *.json", "head -n 1 *.csv", "cat src/*.ts"]);
    await expectAsked(["sort *", "sed -n 1p *", "rg x *", "git diff *"]);
  });
});

describe("environment prefixes", () => {
  it("allows the safe list and refuses variables that change what runs", async () => {
    await expectAllowed(["LANG=C ls", "NO_COLOR=1 TZ=UTC git log -1"]);
    await expectAsked([
      "PATH=/tmp ls",
      "LD_PRELOAD=x.so cat a",
      "GIT_PAGER=x git log",
      "PAGER=x git log",
      "NODE_OPTIONS=--require=x node --version",
      "BASH_ENV=x ls",
      "FOO=1 ls",
      "HOME=/tmp ls",
    ]);
  });

  it("treats a bare assignment of a dangerous variable as a change to what later commands run", async () => {
    await expectAsked(["PATH=/tmp/evil:$PATH; git status", "export PATH=/tmp; ls"]);
    await expectAllowed(["X=1; ls"]);
  });
});

describe("path constraints", () => {
  it("asks when a read names a path outside the working directories", async () => {
    await expectAsked([
      "cat /etc/passwd",
      "ls ~",
      "ls ..",
      "cat ../../x",
      "grep -r x /",
      "head ~/.ssh/id_rsa",
      "cat < /etc/hosts",
    ]);
    await expectAllowed(["cat ./a/../b", "cat /dev/null"]);
  });

  it("says a path known only at run time may be outside, not that it is", async () => {
    const result = await decide('for f in src/*.txt; do wc -l "$f"; done');
    expect(result.behavior).toBe("passthrough");
    const message = "message" in result ? result.message : "";
    expect(message).toContain('"$f", a path known only when it runs');
    expect(message).not.toContain('"$f", outside');
  });

  it("checks files named by options as well as operands", async () => {
    await expectAsked([
      "grep -f /etc/shadow x",
      "rg --ignore-file /etc/x y",
      "find . -newer /etc/shadow",
      "diff --to-file=/etc/passwd a",
      "wc --files0-from=/etc/list",
      "du -X /etc/x .",
    ]);
    await expectAllowed(["grep -f patterns.txt src", "find . -newer package.json"]);
  });

  it("checks find's start points after its leading options (-H, -L, -P, -D, -O, --)", async () => {
    await expectAsked([
      "find -L /etc -name passwd",
      "find -H ~ -name id_rsa",
      "find -P / -name x",
      "find -O3 / -name x",
      "find -D stat / -name x",
      "find -L -H -- ~/.ssh",
      "find -files0-from starts.txt -name x",
    ]);
    await expectAllowed(["find -L . -name x", "find -H src -type f", "find -O2 -D stat -- src -name '*.ts'"]);
  });

  it("follows cd: a later relative path lands where cd went", async () => {
    await expectAsked(["cd / && cat etc/passwd", "cd ~ && ls", "cd .. && ls", "pushd /tmp && ls", "cd $X && ls"]);
    await expectAllowed(["cd src && cat a.ts"]);
  });

  it("keeps a cd inside a subshell, pipeline stage or substitution to itself", async () => {
    for (const command of ["(cd /; true) && ls", "cd / | true; ls", "echo $(cd /) ; ls"]) {
      const analysis = await analyzeCommand(command, project);
      const last = analysis.parts[analysis.parts.length - 1];
      expect(last?.command.words[0]?.value, command).toBe("ls");
      expect(last?.command.cwd, command).toBe(project);
    }
    const leaked = await analyzeCommand("{ cd /; true; } && ls", project);
    expect(leaked.parts[leaked.parts.length - 1]?.command.cwd).toBe("/");
  });
});
