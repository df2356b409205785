// The one script of a session's page: it asks the server every second how large the transcript
// (and its subagents' transcripts) are and, when they grew, fetches the page again and swaps its
// content in, keeping the reader at the bottom if they were there. Polling a file's size is a stat
// per second per open page: simpler than server-sent events (no connection to hold open, no
// fs.watch, which misses changes on some file systems) and plenty for a person reading along.
export const LIVE_SCRIPT = `
(() => {
  const stampUrl = document.currentScript.dataset.stamp;
  let last = null;
  async function tick() {
    try {
      const res = await fetch(stampUrl, { cache: "no-store", credentials: "same-origin" });
      if (res.ok) {
        const { stamp } = await res.json();
        if (last !== null && stamp !== last) await refresh();
        last = stamp;
      }
    } catch (e) {}
    setTimeout(tick, 1000);
  }
  async function refresh() {
    const atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
    const open = new Set([...document.querySelectorAll("details[open][id]")].map((d) => d.id));
    const res = await fetch(location.href, { cache: "no-store", credentials: "same-origin" });
    if (!res.ok) return;
    const next = new DOMParser().parseFromString(await res.text(), "text/html");
    const content = next.getElementById("content");
    if (!content) return;
    document.getElementById("content").replaceWith(document.adoptNode(content));
    for (const id of open) document.getElementById(id)?.setAttribute("open", "");
    if (atBottom) window.scrollTo(0, document.body.scrollHeight);
    document.body.dataset.refreshed = String(Number(document.body.dataset.refreshed || 0) + 1);
  }
  tick();
})();
`;
