// Debian's chromium as the browser tests drive it through playwright-core (never `playwright install`).

export const CHROMIUM = "/usr/bin/chromium";

/** The flags STACK.md lists for this machine's chromium (no sandbox as root, nothing fetched). */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
