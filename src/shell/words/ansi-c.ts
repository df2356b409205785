// Decoding of bash's $'...' strings, so `$'\x72\x6d'` is seen as the `rm` bash will run.

const SIMPLE_ESCAPES: Record<string, string> = {
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

/** `body` is the text between `$'` and the closing `'`. */
export function decodeAnsiC(body: string): string {
  let out = "";
  let i = 0;
  while (i < body.length) {
    const ch = body[i] as string;
    if (ch !== "\\" || i + 1 >= body.length) {
      out += ch;
      i += 1;
      continue;
    }
    const next = body[i + 1] as string;
    const simple = SIMPLE_ESCAPES[next];
    if (simple !== undefined) {
      out += simple;
      i += 2;
      continue;
    }
    if (next >= "0" && next <= "7") {
      const digits = /^[0-7]{1,3}/.exec(body.slice(i + 1))?.[0] ?? next;
      out += String.fromCharCode(Number.parseInt(digits, 8) & 0xff);
      i += 1 + digits.length;
      continue;
    }
    const numeric = readNumericEscape(body, i + 1);
    if (numeric) {
      out += numeric.text;
      i = numeric.end;
      continue;
    }
    if (next === "c" && i + 2 < body.length) {
      out += String.fromCharCode((body.charCodeAt(i + 2) & 0x1f) >>> 0);
      i += 3;
      continue;
    }
    out += `\\${next}`;
    i += 2;
  }
  return out;
}

function readNumericEscape(body: string, at: number): { text: string; end: number } | undefined {
  const kind = body[at];
  const maxDigits = kind === "x" ? 2 : kind === "u" ? 4 : kind === "U" ? 8 : 0;
  if (maxDigits === 0) return undefined;
  const digits = new RegExp(`^[0-9a-fA-F]{1,${maxDigits}}`).exec(body.slice(at + 1))?.[0];
  if (!digits) return undefined;
  const code = Number.parseInt(digits, 16);
  if (code > 0x10ffff) return undefined;
  return { text: String.fromCodePoint(code), end: at + 1 + digits.length };
}
