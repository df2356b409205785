// Placeholder until its issue lands: says so clearly instead of pretending.
export async function run(_argv: string[]): Promise<number> {
  process.stderr.write("warden: the 'undo' command is not built yet\n");
  return 2;
}
