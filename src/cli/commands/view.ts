// `warden view [SESSION] [--port N]`: serves this project's sessions as local web pages (see
// src/view/) and prints the URL to open, with its access token; runs until interrupted. Loaded
// only when the subcommand runs, so no other command pays for the viewer.

import { untilStopSignal } from "../../process/until-stop-signal.js";
import { resolveSessionId } from "../../session/transcript-reader.js";
import { findTranscript, startViewServer } from "../../view/server.js";
import { type CommandIo, processIo } from "./command-io.js";

const USAGE = `usage: warden view [SESSION] [--port N]
  Serves the sessions of this folder's project on http://127.0.0.1 (a random port unless --port)
  and prints the address to open; the token in it is needed for every page. Ctrl-C stops it.`;

interface ViewArgs {
  sessionId?: string;
  port: number;
}

function parseArgs(argv: readonly string[]): ViewArgs | string {
  const args: ViewArgs = { port: 0 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "-h" || arg === "--help") return "";
    if (arg === "--port" || arg.startsWith("--port=")) {
      const value = arg === "--port" ? argv[++i] : arg.slice("--port=".length);
      const port = Number(value);
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        return `--port needs a port number, got ${JSON.stringify(value ?? "")}`;
      args.port = port;
    } else if (!arg.startsWith("-") && args.sessionId === undefined) {
      args.sessionId = arg;
    } else {
      return `unexpected argument: ${arg}`;
    }
  }
  return args;
}

export async function run(argv: string[], io: CommandIo = processIo()): Promise<number> {
  const args = parseArgs(argv);
  if (typeof args === "string") {
    // Asked for, the usage is the answer (stdout); after a mistake it explains the error (stderr).
    if (args === "") io.stdout.write(`${USAGE}\n`);
    else io.stderr.write(`warden view: ${args}\n${USAGE}\n`);
    return args === "" ? 0 : 2;
  }
  let sessionId = args.sessionId;
  if (sessionId !== undefined) {
    // The start of an id, as the resume picker and `--resume` show and take it (`cbb95212`).
    try {
      sessionId = resolveSessionId(io.cwd, sessionId);
    } catch (error) {
      io.stderr.write(`warden view: ${(error as Error).message}\n`);
      return 1;
    }
    if (findTranscript(io.cwd, sessionId) === undefined) {
      io.stderr.write(`warden view: no saved session ${JSON.stringify(sessionId)} (warden view lists them all)\n`);
      return 1;
    }
  }
  const stopped = untilStopSignal();
  const server = await startViewServer({ cwd: io.cwd, port: args.port });
  io.stdout.write(`warden view: open ${server.urlFor(sessionId)}\n`);
  const release = await stopped;
  await server.close();
  release();
  return 0;
}
