// Refuses to let the agent write a credential into a file or its notes (Write, Edit, NotebookEdit,
// TodoWrite and the task list): a key pasted into source code ends up in a commit, a log or a
// shared document. The patterns are secretlint's recommended rule set (AWS, GCP, GitHub, npm,
// Slack, OpenAI, Anthropic, private keys, database URLs with passwords, ...), loaded on the first
// check only so start-up never pays, and ./secret-patterns.ts for what it lacks (Stripe, Google
// API keys, JWTs, `.env` password lines). What is scanned is the content as it will be: for an
// edit, the file after the edit (a key completed from a placeholder exists only there).
// The error names the kind of secret and its line, never its value (the model would repeat it).
import type { ValidationResult } from "../../tool/types.js";
import { findPatternSecrets, lineOf } from "./secret-patterns.js";

/** The validation error code of a refused credential, as the reference numbers it. */
export const SECRET_ERROR_CODE = 0;

export interface SecretFinding {
  /** What it looks like ("GitHub Token", "AWS Secret Access Key"); never the value. */
  kind: string;
  /** 1-based line in the scanned text (or, for a list, the item's number). */
  line: number;
}

type LintSource = typeof import("@secretlint/core").lintSource;
type SecretLintCoreConfig = Parameters<LintSource>[0]["options"]["config"];
type SecretLintCoreResultMessage = Extract<Awaited<ReturnType<LintSource>>["messages"][number], { type: "message" }>;

interface Scanner {
  lintSource: LintSource;
  config: SecretLintCoreConfig;
}

let scanner: Promise<Scanner> | undefined;

/** The preset's comment filter: it honours `secretlint-disable` comments, which the model could write. */
const COMMENT_FILTER = "@secretlint/secretlint-rule-filter-comments";
const AWS_RULE = "@secretlint/secretlint-rule-aws";

function loadScanner(): Promise<Scanner> {
  scanner ??= Promise.all([import("@secretlint/core"), import("@secretlint/secretlint-rule-preset-recommend")]).then(
    ([core, preset]) => ({
      lintSource: core.lintSource,
      // The preset's rules one by one rather than the preset itself: secretlint 11 ignores
      // `disabled` for a rule inside a preset, and the comment filter must not run.
      config: {
        rules: preset.rules
          .filter((rule) => rule.meta.id !== COMMENT_FILTER)
          .map((rule) =>
            rule.meta.id === AWS_RULE
              ? // Access key IDs are found only with the ID scan on; account numbers are not secret.
                { id: rule.meta.id, rule, options: { enableIDScanRule: true }, allowMessageIds: ["AWSAccountID"] }
              : { id: rule.meta.id, rule },
          ),
      },
    }),
    (error: unknown) => {
      // Fail closed, and let a later write try again.
      scanner = undefined;
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(`the credential check could not load (${reason}); nothing was written`);
    },
  );
  return scanner;
}

/** "found GitHub Token(****): ****" → "GitHub Token"; the masked value never leaves this file. */
function kindOf(message: SecretLintCoreResultMessage): string {
  const described = /^found\s+([^(:]+)/.exec(message.message)?.[1]?.replace(/\*/g, "").trim();
  return described || message.messageId;
}

/**
 * Credentials in `content` that the file does not already hold (`alreadyThere`, read only when
 * something was found): moving or keeping a secret the file had is not a leak, adding one is.
 */
export async function findNewSecrets(content: string, alreadyThere?: () => string): Promise<SecretFinding[]> {
  if (content === "") return [];
  const { lintSource, config } = await loadScanner();
  const result = await lintSource({
    source: { content, filePath: "content.txt", ext: ".txt", contentType: "text" },
    options: { config, maskSecrets: true, noPhysicFilePath: true },
  });
  const linted = result.messages.filter((m): m is SecretLintCoreResultMessage => m.type === "message");
  const found = linted.map((m) => ({ kind: kindOf(m), start: m.range[0], end: m.range[1], line: m.loc.start.line }));
  // secretlint's finding wins where both see the same text (an OPENAI_API_KEY=sk-... line).
  for (const extra of findPatternSecrets(content)) {
    if (found.some((f) => extra.start < f.end && f.start < extra.end)) continue;
    found.push({ ...extra, line: lineOf(content, extra.start) });
  }
  if (found.length === 0) return [];
  const before = alreadyThere?.() ?? "";
  return found
    .filter((finding) => {
      const value = content.slice(finding.start, finding.end);
      return value === "" || !before.includes(value);
    })
    .sort((a, b) => a.start - b.start)
    .map(({ kind, line }) => ({ kind, line }));
}

/**
 * The refusal for `findings` (validation error code 0), or undefined when there are none. `target`
 * is what was to be written (a file's path, "the task list"); `place` what a finding's number counts.
 */
export function secretRefusal(
  target: string,
  findings: readonly SecretFinding[],
  place: "line" | "item" = "line",
): ValidationResult | undefined {
  if (findings.length === 0) return undefined;
  const what = findings.map((f) => `a ${f.kind} (${place} ${f.line})`).join(", ");
  return {
    result: false,
    errorCode: SECRET_ERROR_CODE,
    message:
      `Refusing to write ${target}: the new content contains what looks like ${what}. ` +
      "The agent must not write credentials into files or notes. Refer to them through the environment or a secret store instead, and if the user wants the value there, ask them to add it themselves.",
  };
}
