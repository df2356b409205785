// The frame every page of `warden view` shares: a stylesheet and, on a session's page, the small
// script that keeps it live. Both are our own constants; the page's content comes in escaped.
import { html, raw, type SafeHtml } from "./html.js";
import { LIVE_SCRIPT } from "./live-script.js";

const STYLE = `
:root { color-scheme: light dark; --fg:#1d232a; --muted:#5f6b76; --bg:#fbfbfa; --card:#fff; --line:#dde1e5;
  --add:#e6f6ea; --del:#fbe9e9; --allow:#1f7a3d; --deny:#b3261e; --ask:#8a5a00; --accent:#2b5fb3; }
@media (prefers-color-scheme: dark) { :root { --fg:#e4e7ea; --muted:#9aa5b1; --bg:#15181b; --card:#1d2125; --line:#2f353b;
  --add:#17331f; --del:#3a1c1c; --allow:#6fcf8e; --deny:#f28b82; --ask:#e5b45c; --accent:#8ab4f8; } }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.5 system-ui, sans-serif; color:var(--fg); background:var(--bg); }
header.top { padding:10px 20px; border-bottom:1px solid var(--line); display:flex; gap:16px; align-items:baseline; flex-wrap:wrap; }
header.top h1 { font-size:16px; margin:0; }
a { color:var(--accent); }
main { max-width:1100px; margin:0 auto; padding:16px 20px 80px; }
.muted { color:var(--muted); }
.card { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:10px 14px; margin:10px 0; }
.user { border-left:4px solid var(--accent); }
.user.meta { opacity:.75; border-left-color:var(--line); }
.assistant { border-left:4px solid #7b61c9; }
.role { font-size:12px; color:var(--muted); display:flex; gap:10px; flex-wrap:wrap; }
.role b { text-transform:uppercase; letter-spacing:.04em; }
pre { white-space:pre-wrap; word-break:break-word; margin:6px 0; font:12.5px/1.45 ui-monospace, monospace; }
.text { white-space:pre-wrap; word-break:break-word; }
details.tool { border:1px solid var(--line); border-radius:6px; margin:8px 0; padding:4px 10px; }
details.tool > summary { cursor:pointer; font-family:ui-monospace, monospace; }
.err { color:var(--deny); }
.badge { display:inline-block; padding:0 6px; border-radius:4px; font-size:12px; font-weight:600; border:1px solid currentColor; }
.allow { color:var(--allow); } .deny { color:var(--deny); } .ask { color:var(--ask); }
.diff { border:1px solid var(--line); border-radius:4px; overflow:auto; }
.diff div { font:12.5px/1.4 ui-monospace, monospace; white-space:pre-wrap; padding:0 6px; }
.diff .add { background:var(--add); } .diff .del { background:var(--del); }
.marker { text-align:center; color:var(--muted); border-top:2px dashed var(--line); margin:18px 0; padding-top:4px; font-size:12px; }
table { border-collapse:collapse; width:100%; }
td, th { text-align:left; padding:6px 8px; border-bottom:1px solid var(--line); vertical-align:top; }
.section-title { font-weight:600; margin-top:8px; }
`;

export interface PageOptions {
  title: string;
  /** Shown in the header beside the title (links back, totals). */
  nav?: SafeHtml;
  /** Set on pages that follow a growing transcript: the URL that reports its size. */
  stampUrl?: string;
  nonce: string;
}

export function page(options: PageOptions, body: SafeHtml): string {
  const live = options.stampUrl
    ? html`<script nonce="${options.nonce}" data-stamp="${options.stampUrl}">${raw(LIVE_SCRIPT)}</script>`
    : undefined;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${options.title}</title><style nonce="${options.nonce}">${raw(STYLE)}</style></head>
<body><header class="top"><h1>${options.title}</h1>${options.nav}</header>
<main id="content">${body}</main>${live}</body></html>`.text;
}
