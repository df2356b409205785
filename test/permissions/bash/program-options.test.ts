// An allow rule for a command's prefix never grants an option that names a program for the command
// to run, in any spelling getopt takes (abbreviated long options, `=` or a separate word, short
// options in a cluster or glued to their value, tar's old style), nor one known only at run time.
// The same commands without such an option stay allowed, and a rule that spells the option itself
// grants it. Read-only reports (`git submodule status`, `history`, `top -b`, `go env NAME`) run
// without a prompt; their writing forms ask.
import { describe, expect, it } from "vitest";
import { outcome } from "../../shell/helpers.js";

const cases: Array<[string, string[]]> = [
  [
    "tar:*",
    [
      "tar --use-compress-program=sh -xf a.tar",
      "tar --use-compress-program sh -xf a.tar",
      "tar --use-comp=sh -xf a.tar",
      "tar -I sh -xf a.tar",
      "tar -Ish -xf a.tar",
      "tar -xIsh -f a.tar",
      "tar xIf sh a.tar",
      "tar -xf a.tar --to-command=sh",
      "tar -x --to-com sh -f a.tar",
      "tar -xf a.tar --checkpoint=1 --checkpoint-action=exec=sh",
      "tar -cf a.tar --rsh-command=/bin/sh host:x",
      "tar -cf a.tar -F sh x",
      "tar -cf a.tar --info-script=sh x",
      "tar -cf a.tar --new-volume-script=sh x",
      "tar $OPT -xf a.tar",
      'tar "--use-compress-program=sh" -xf a.tar',
      "tar $'--use-compress-program=sh' -xf a.tar",
    ],
  ],
  ["tar -xf:*", ["tar -xf a.tar -I sh"]],
  [
    "git diff:*",
    ["git diff --ext-diff HEAD", "git diff --ext HEAD", "git -c core.pager=sh diff", "git diff --output=/tmp/x"],
  ],
  ["git fetch:*", ["git fetch --upload-pack=sh origin", "git fetch --upload-p=sh origin"]],
  ["git ls-remote:*", ["git ls-remote --upload-pack=sh origin", "git ls-remote -u sh origin"]],
  ["git push:*", ["git push --receive-pack=sh origin", "git push --exec=sh origin"]],
  [
    "git clone:*",
    ["git clone -u sh x y", "git clone --config core.fsmonitor=sh x y", "git clone --template=/tmp/t x y"],
  ],
  ["git rebase:*", ["git rebase --exec sh main", "git rebase -x sh main"]],
  ["git submodule:*", ["git submodule foreach sh"]],
  ["git bisect:*", ["git bisect run sh"]],
  ["git difftool:*", ["git difftool -x sh", "git difftool --extcmd=sh", "git difftool -t vimdiff"]],
  ["git filter-branch:*", ["git filter-branch --tree-filter sh"]],
  ["git config:*", ["git config core.pager sh", "git config --local core.fsmonitor sh", "git config alias.x '!sh'"]],
  ["find:*", ["find . -exec sh {} ;", "find . -execdir sh {} ;", "find . -ok sh {} ;", "find . -okdir sh {} ;"]],
  [
    "rsync:*",
    ["rsync -e sh a b", "rsync --rsh=sh a b", "rsync -esh a b", "rsync -avze sh a b", "rsync --rsync-path=sh a host:b"],
  ],
  ["sort:*", ["sort --compress-program=sh x", "sort --compress-p=sh x", "sort --com=sh x"]],
  ["less:*", ["less '+!sh' x", "less '+|sh' x", "less -k keys x", "LESSOPEN='|sh %s' less x"]],
  ["man:*", ["man -P sh ls", "man --pager=sh ls", "man --pag=sh ls", "man -Hsh ls"]],
  [
    "ssh:*",
    ["ssh -o ProxyCommand=sh host", "ssh -oProxyCommand=sh host", "ssh -o 'LocalCommand sh' host", "ssh -F cfg host"],
  ],
  ["scp:*", ["scp -S sh a host:b", "scp -o ProxyCommand=sh a host:b"]],
  ["zip:*", ["zip -TT sh x.zip a", "zip x.zip a --unzip-command sh -T"]],
  [
    "go test:*",
    ["go test -exec sh ./...", "go test -exec=sh ./...", "go test --exec=sh ./...", "go test -toolexec sh ./..."],
  ],
  ["go vet:*", ["go vet -vettool=sh ./..."]],
  ["make:*", ["make SHELL=/bin/sh", "make --eval='x:;sh'"]],
  ["npm run:*", ["npm run x --script-shell sh"]],
  ["npm run test:*", ["npm run test --prefix /tmp", "npm run test --prefix=/tmp", "npm run test -C /tmp"]],
  ["pnpm test:*", ["pnpm test --dir /tmp", "pnpm test -C /tmp"]],
  ["yarn test:*", ["yarn test --cwd /tmp"]],
  // The program a launcher starts has its own options that run programs (pytest's -p plugin).
  ["python3 -m pytest:*", ["python3 -m pytest -p evil", "python3 -m pytest -pevil"]],
  ["uv run pytest:*", ["uv run pytest -p evil", "uv run --with x pytest -p evil"]],
  ["poetry run pytest:*", ["poetry run pytest -p evil"]],
  ["npx pytest:*", ["npx pytest -p evil"]],
  ["npx tar:*", ["npx tar -I sh -xf a.tar"]],
  ["pnpm exec make:*", ["pnpm exec make SHELL=/bin/sh"]],
  ["vim:*", ["vim '+!sh' x", "vim -c '!sh' x", "vim --cmd '!sh' x"]],
  ["emacs:*", ["emacs --eval '(shell-command \"sh\")'"]],
  ["xargs:*", ["xargs sh"]],
  ["env:*", ["env sh"]],
  ["fd:*", ["fd -x sh", "fd --exec sh"]],
  ["rg:*", ["rg --pre sh x", "rg --pr sh x"]],
];

describe("an allow prefix rule never grants an option naming a program", () => {
  for (const [rule, commands] of cases) {
    it(`Bash(${rule}) asks for ${commands.length} spellings`, async () => {
      for (const command of commands) {
        expect(await outcome(command, { allow: [`Bash(${rule})`] }), command).not.toBe("allow");
      }
    });
  }

  it("still allows the same commands without such an option, and the option when the rule spells it", async () => {
    for (const [rule, command] of [
      ["tar:*", "tar -xzf a.tar.gz"],
      ["tar:*", "tar -tf a.tar"],
      ["rsync:*", "rsync -av src/ dest/"],
      ["git clone:*", "git clone https://example.com/x.git y"],
      ["git config:*", "git config user.name x"],
      ["ssh:*", "ssh host"],
      ["go test:*", "go test ./..."],
      ["make:*", "make test"],
      ["less:*", "less +F log"],
      ["less:*", "less +100 log"],
      ["man:*", "man ls"],
      ["tar -I zstd:*", "tar -I zstd -xf a.tar"],
      ["rsync -e ssh:*", "rsync -e ssh a host:b"],
      ["python3 -m pytest:*", "python3 -m pytest -x tests"],
      ["uv run pytest:*", "uv run pytest -k name"],
      ["npx tsc:*", "npx tsc --noEmit -p tsconfig.json"],
    ]) {
      expect(await outcome(command as string, { allow: [`Bash(${rule})`] }), command).toBe("allow");
    }
  });
});

describe("read-only reports run without a prompt", () => {
  it("allows them", async () => {
    for (const command of [
      "git submodule status",
      "git submodule",
      "git submodule status --recursive",
      "history | tail",
      "history 20",
      "top -b -n 1",
      "top -bn1 | head -20",
      "go env GOPATH",
      "go env -json GOPATH GOROOT",
      "go env",
    ]) {
      expect(await outcome(command), command).toBe("allow");
    }
  });

  it("asks for their changing or program-running forms", async () => {
    for (const command of [
      "git submodule update --init",
      "git submodule foreach ls",
      "history -c",
      "history -w /tmp/h",
      "history -d 3",
      "top",
      "top -n 1",
      "go env -w GOPATH=/x",
      "go env -u GOPATH",
      "go env GOAUTH",
    ]) {
      expect(await outcome(command), command).toBe("ask");
    }
  });
});

describe("words known only at run time under a prefix rule", () => {
  it("count as possible program options, unless they are an option's value", async () => {
    expect(await outcome('X=--upload-pack=sh; git fetch -v "$X"', { allow: ["Bash(git fetch:*)"] })).not.toBe("allow");
    expect(await outcome("tar $OPT -xf a.tar", { allow: ["Bash(tar:*)"] })).not.toBe("allow");
    expect(await outcome('tar -xf "$ARCHIVE"', { allow: ["Bash(tar:*)"] })).toBe("allow");
    expect(await outcome('git commit -m "$MESSAGE"', { allow: ["Bash(git commit:*)"] })).toBe("allow");
  });
});
