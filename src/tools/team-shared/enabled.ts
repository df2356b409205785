// Teams are opt-in, as the reference gates them (isAgentSwarmsEnabled): WARDEN_AGENT_TEAMS=1 or
// settings `agentTeams: true`. Off, TeamCreate, TeamDelete and SendMessage are not in the pool and
// the first request does not even carry their names.

/** On when WARDEN_AGENT_TEAMS is 1 or true, else as settings say. */
export function isAgentTeamsEnabled(setting?: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.WARDEN_AGENT_TEAMS?.trim().toLowerCase();
  if (value === "1" || value === "true") return true;
  if (value === "0" || value === "false") return false;
  return setting === true;
}
