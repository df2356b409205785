// Credentials secretlint's recommended rules (11.7.1) do not know, found by their published
// formats: Stripe keys, Google API keys and OAuth client secrets, JSON Web Tokens, and `.env`-style
// lines that assign a password, secret, token or key (`DB_PASSWORD=...`). The registry has no
// secretlint rule package for these (its rule-pattern package is a generic regex runner; checked
// 2026-12), so they are here, each with the placeholder test that keeps `changeme`, `xxx`,
// `${VAR}` and the like from being refused.

export interface PatternFinding {
  kind: string;
  /** Offsets of the secret value in the scanned text. */
  start: number;
  end: number;
}

interface TokenFormat {
  kind: string;
  pattern: RegExp;
}

/** Formats whose shape alone says "credential"; each pattern's whole match is the value. */
const TOKEN_FORMATS: TokenFormat[] = [
  // Stripe: secret, restricted and webhook signing keys (publishable pk_ keys are public).
  { kind: "Stripe Secret Key", pattern: /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,247}\b/g },
  { kind: "Stripe Webhook Secret", pattern: /\bwhsec_[0-9A-Za-z]{24,}\b/g },
  // Google: API keys (AIza + 35) and OAuth client secrets.
  { kind: "Google API Key", pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g },
  { kind: "Google OAuth Client Secret", pattern: /\bGOCSPX-[0-9A-Za-z_-]{28}(?![0-9A-Za-z_-])/g },
  // A JWT: base64url header and payload that both start as JSON objects (`{"` → eyJ), a signature.
  {
    kind: "JSON Web Token",
    pattern: /\beyJ[0-9A-Za-z_-]{8,}\.eyJ[0-9A-Za-z_-]{8,}\.[0-9A-Za-z_-]{16,}(?![0-9A-Za-z_-])/g,
  },
];

/**
 * A line that assigns a variable (`DB_PASSWORD=...`, `export API_TOKEN="..."`, `client_secret:
 * ...`, `"password": "..."`): the name, then `=` or `:`, then the value. Whether the name is a
 * secret's is decided on its words (isSecretName).
 */
const ASSIGNMENT =
  /^[ \t]*(?:export[ \t]+)?(["']?)([A-Za-z_][A-Za-z0-9_.-]{0,80})\1[ \t]*([=:])[ \t]*(?:"([^"\r\n]*)"|'([^'\r\n]*)'|([^\s#"'][^\s#]*))/gm;

/**
 * An environment assignment inside a line (`DB_PASSWORD=x npm start`, `docker run -e API_TOKEN=x`,
 * "set SLACK_TOKEN=x in CI"): an upper-case name, `=`, the value.
 */
const INLINE_ENV = /(?<![\w$.-])([A-Z][A-Z0-9_]{2,80})=(?:"([^"\r\n]*)"|'([^'\r\n]*)'|([^\s#"'`;&|)]+))/g;

/** Words that name a secret on their own, and pairs that do (`api key`, `private key`). */
const SECRET_WORDS = new Set([
  "password",
  "passwd",
  "pwd",
  "passphrase",
  "secret",
  "token",
  "apikey",
  "credential",
  "credentials",
]);
const SECRET_PAIRS = new Set([
  "api key",
  "private key",
  "access key",
  "secret key",
  "auth key",
  "signing key",
  "encryption key",
]);

/** `DB_PASSWORD`, `apiKey`, `client-secret`: the name's words (by separators and camel case). */
function isSecretName(name: string): boolean {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[\s_.-]+/)
    .map((word) => word.toLowerCase())
    .filter((word) => word !== "");
  return words.some((word, i) => SECRET_WORDS.has(word) || SECRET_PAIRS.has(`${word} ${words[i + 1] ?? ""}`));
}

/** Values that stand in for a secret rather than being one. */
const PLACEHOLDER = [
  /^\$\{?[A-Za-z_][A-Za-z0-9_]*(?::?[-=?][^}]*)?\}?$/, // ${VAR}, $VAR, ${VAR:-x}
  /^\$\{\{.*\}\}$/, // ${{ secrets.X }}
  /^\{\{.*\}\}$/, // {{ value }}
  /^%[A-Za-z_][A-Za-z0-9_]*%$/, // %VAR%
  /^<[^>]*>?$/, // <your-password>
  /^\[[^\]]*\]$/,
  /^(?:x+|\*+|\.+|-+|_+|0+|#+|•+)$/i,
  /^(?:changeme|change[_-]?me|change[_-]?this|replace[_-]?me|todo|tbd|fixme|none|null|nil|undefined|empty|true|false|example|sample|dummy|test|testing|placeholder|redacted|secret|password|passwd|pass|token|apikey|api[_-]?key|your[_-].*|my[_-].*|insert[_-].*|enter[_-].*|put[_-].*|fake.*|xxx.*|.*xxxx.*|.*example.*|.*placeholder.*|.*changeme.*|.*dummy.*)$/i,
  /^(?:process\.env|os\.environ|env\(|getenv|System\.getenv|ENV\[)/, // read from the environment
  /^(?:bearer|basic|digest|oauth2?|jwt|none|required|optional|hidden|masked|string|text)$/i, // a type, not a value
  /^[0-9]+$/, // a number (token limits, lengths)
];

function isPlaceholder(value: string): boolean {
  const trimmed = value.trim();
  return PLACEHOLDER.some((pattern) => pattern.test(trimmed));
}

/** A value that could be a real secret: long enough, not a placeholder, not an expression. */
function looksLikeSecretValue(value: string, quoted: boolean): boolean {
  if (value.length < 6 || isPlaceholder(value)) return false;
  // Unquoted values in code are usually expressions (`password = getPassword()`, `token: args.token`).
  if (!quoted && /[()[\]{},;]|^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(value)) return false;
  return true;
}

export function findPatternSecrets(text: string): PatternFinding[] {
  const found: PatternFinding[] = [];
  for (const { kind, pattern } of TOKEN_FORMATS) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index ?? 0;
      if (/x{6,}|X{6,}/.test(match[0])) continue; // sk_live_xxxxxxxx… in documentation
      found.push({ kind, start, end: start + match[0].length });
    }
  }
  for (const match of text.matchAll(ASSIGNMENT)) {
    if (!isSecretName(match[2] ?? "")) continue;
    const value = match[4] ?? match[5] ?? match[6] ?? "";
    const quoted = match[4] !== undefined || match[5] !== undefined;
    if (!looksLikeSecretValue(value, quoted)) continue;
    // `passwordField: inputElement` in code or YAML: a bare name is a reference, not a value.
    if (!quoted && match[3] === ":" && /^[A-Za-z_$][\w$]*$/.test(value)) continue;
    const end = (match.index ?? 0) + match[0].length;
    const start = end - value.length - (quoted ? 1 : 0);
    found.push({ kind: `${match[2]} value`, start, end: start + value.length });
  }
  for (const match of text.matchAll(INLINE_ENV)) {
    if (!isSecretName(match[1] ?? "")) continue;
    const value = match[2] ?? match[3] ?? match[4] ?? "";
    const quoted = match[2] !== undefined || match[3] !== undefined;
    if (!looksLikeSecretValue(value, quoted)) continue;
    const end = (match.index ?? 0) + match[0].length - (quoted ? 1 : 0);
    const start = end - value.length;
    // The same value as a whole-line assignment above: one finding.
    if (found.some((f) => f.start === start)) continue;
    found.push({ kind: `${match[1]} value`, start, end });
  }
  return found;
}

/** The 1-based line of an offset. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line += 1;
  return line;
}
