// After /plugin changed what is installed or turned on: the session is reopened on the same
// conversation with its settings read again (as /model reopens it on another model), so the
// plugins' commands, agents, skills, hooks, MCP and language servers load now instead of at the next start.
// The person chooses: a reload restarts the session's MCP servers and runs its SessionStart hooks.
import type { CommandContext } from "./slash-commands.js";

export async function offerReload(ctx: CommandContext, changed: string): Promise<void> {
  const choice = await ctx.pick(`${changed}\nApply the change to this session now?`, [
    {
      label:
        "Reload now: the conversation continues; plugin commands, agents, skills, hooks, MCP and language servers load",
      value: "reload",
    },
    { label: "Later: it applies from the next session (or /plugin reload)", value: "later" },
  ]);
  if (choice !== "reload") {
    ctx.transcript.addNotice(`${changed} It applies from the next session (or /plugin reload).`);
    return;
  }
  ctx.transcript.addNotice(changed);
  await reloadSession(ctx);
}

export async function reloadSession(ctx: CommandContext): Promise<void> {
  const { pluginListing } = await import("../../config/plugins/listing.js");
  // A session with nothing said yet has no transcript to resume: a fresh one is the same session.
  const said = ctx.handle.engine.messages.length > 0;
  await ctx.switchSession({ ...(said && { resume: ctx.handle.engine.sessionId }), rereadSettings: true });
  const next = ctx.current();
  ctx.transcript.showHistory(next.engine.messages);
  const on = [
    ...new Set(
      pluginListing(next.engine.cwd)
        .installs.filter((i) => i.on)
        .map((i) => i.id),
    ),
  ];
  const names = on.map((id) => id.slice(0, id.lastIndexOf("@")));
  const ofPlugins = (name: string) => names.some((plugin) => name.startsWith(`${plugin}:`));
  const commands = (await next.customCommands()).filter((c) => ofPlugins(c.name)).map((c) => `/${c.name}`);
  const agents = next.agents.filter((a) => ofPlugins(a.agentType)).map((a) => a.agentType);
  ctx.transcript.addNotice(
    [
      `Reloaded the session with its plugins: ${on.join(", ") || "none turned on"}.`,
      ...(commands.length > 0 ? [`  commands and skills: ${commands.join(", ")}`] : []),
      ...(agents.length > 0 ? [`  agents: ${agents.join(", ")}`] : []),
    ].join("\n"),
  );
}
