// The security validators (ids from the reference's list of 23, 0 for the shell-quote pre-check):
// the pipeline's phases, every validator's own examples, and the early allows.
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are bash commands, where ${...} is bash syntax.
import { describe, expect, it } from "vitest";
import { analyzeCommand, analyzeCommandWith } from "../../src/shell/analysis/index.js";
import { loadShellParser } from "../../src/shell/parse/index.js";
import {
  EARLY_VALIDATORS,
  MAIN_VALIDATORS,
  PRE_CHECKS,
  runValidators,
  type ValidationOutcome,
  type Validator,
  type ValidatorOutcome,
} from "../../src/shell/validators/index.js";
import { decide, project } from "./helpers.js";

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

// Every validator carries its own examples (src/shell/validators/*.ts, `examples`); each is parsed
// once and the validator's check and the whole pipeline are run on the same input.
const parser = await loadShellParser();

interface Judgement {
  own: ValidatorOutcome;
  pipeline: ValidationOutcome;
}

function judge(validator: Validator, command: string): Judgement {
  let judgement: Judgement | undefined;
  analyzeCommandWith(parser, command, project, (input) => {
    const pipeline = runValidators(input);
    judgement = { own: validator.check(input), pipeline };
    return pipeline;
  });
  if (!judgement) throw new Error("the validators did not run");
  return judgement;
}

const early = new Set<Validator>(EARLY_VALIDATORS);
const validators = [...PRE_CHECKS, ...EARLY_VALIDATORS, ...MAIN_VALIDATORS];

describe.each(validators.map((validator) => ({ validator, name: validator.name })))(
  "$name examples",
  ({ validator }) => {
    const { match, allow = [], notMatch } = validator.examples;

    it("has examples on both sides", () => {
      expect(match.length + allow.length).toBeGreaterThanOrEqual(2);
      expect(notMatch.length).toBeGreaterThanOrEqual(2);
      // Only an early validator may end the checks with "allow".
      if (!early.has(validator)) expect(allow).toEqual([]);
    });

    it.each(match)("flags %j, and is the first to in the pipeline", (command) => {
      const { own, pipeline } = judge(validator, command);
      expect(typeof own === "object" ? own.validator : own).toBe(validator.name);
      expect(pipeline.findings[0]?.validator).toBe(validator.name);
    });

    it.each(allow)("vouches for %j, which then passes the checks", (command) => {
      const { own, pipeline } = judge(validator, command);
      expect(own).toBe("allow");
      expect(pipeline).toEqual({ findings: [], earlyAllow: true });
    });

    it.each(notMatch)("says nothing about %j", (command) => {
      expect(judge(validator, command).own).toBeUndefined();
    });
  },
);

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
