// The SOCKS5 side of the sandbox's filtering proxy (network-proxy.ts): the CONNECT subset of RFC
// 1928 with no authentication, which is what programs that follow ALL_PROXY=socks5h://... use
// (curl, git over https, many language runtimes). A target is decided exactly as the HTTP proxy
// decides it (domain-filter.ts): a name is matched as the client sent it, an address as written,
// so an IP address passes only when the lists name it. The proxy never resolves a name to decide
// (a refused name cannot get through as its address, nor an allowed one as another's). BIND, UDP
// ASSOCIATE and authentication methods are refused with the RFC's own codes; anything malformed
// ends the connection.
import { connect, type Socket } from "node:net";
import { type DomainLists, decideHost } from "./domain-filter.js";

const VERSION = 5;
const NO_AUTHENTICATION = 0x00;
const NO_ACCEPTABLE_METHODS = 0xff;
const CMD_CONNECT = 0x01;
const ATYP_IPV4 = 0x01;
const ATYP_DOMAIN = 0x03;
const ATYP_IPV6 = 0x04;

/** RFC 1928 section 6 reply codes. */
export const SocksReply = {
  succeeded: 0x00,
  generalFailure: 0x01,
  notAllowedByRuleset: 0x02,
  networkUnreachable: 0x03,
  hostUnreachable: 0x04,
  connectionRefused: 0x05,
  ttlExpired: 0x06,
  commandNotSupported: 0x07,
  addressTypeNotSupported: 0x08,
} as const;

/** A handshake that has not arrived whole within this long is dropped. */
const HANDSHAKE_TIMEOUT_MS = 30_000;

export type Parsed<T> =
  | { kind: "incomplete" }
  | { kind: "ok"; value: T; consumed: number }
  /** `reply`: what to answer before closing (a method selection for a greeting, a reply code for a request). */
  | { kind: "error"; reason: string; reply?: number };

export interface SocksTarget {
  host: string;
  port: number;
}

/** The client's greeting: VER NMETHODS METHODS...; only "no authentication" is accepted. */
export function parseGreeting(data: Buffer): Parsed<true> {
  if (data.length < 1) return { kind: "incomplete" };
  if (data[0] !== VERSION) return { kind: "error", reason: `not SOCKS5 (version byte ${data[0]})` };
  if (data.length < 2) return { kind: "incomplete" };
  const count = data[1] as number;
  if (count === 0) return { kind: "error", reason: "the greeting offers no method", reply: NO_ACCEPTABLE_METHODS };
  if (data.length < 2 + count) return { kind: "incomplete" };
  const methods = data.subarray(2, 2 + count);
  if (!methods.includes(NO_AUTHENTICATION))
    return { kind: "error", reason: "only no-authentication is offered by this proxy", reply: NO_ACCEPTABLE_METHODS };
  return { kind: "ok", value: true, consumed: 2 + count };
}

/** A host name as a client may send it: letters, digits, `-`, `_` and dots, nothing else. */
const HOST_NAME = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_.])?$/;

/** The request: VER CMD RSV ATYP DST.ADDR DST.PORT; CONNECT only. */
export function parseRequest(data: Buffer): Parsed<SocksTarget> {
  if (data.length < 4) return { kind: "incomplete" };
  if (data[0] !== VERSION || data[2] !== 0)
    return { kind: "error", reason: "malformed request header", reply: SocksReply.generalFailure };
  if (data[1] !== CMD_CONNECT)
    return { kind: "error", reason: `command ${data[1]} is not supported`, reply: SocksReply.commandNotSupported };
  const type = data[3];
  let host: string;
  let end: number;
  if (type === ATYP_IPV4) {
    end = 4 + 4;
    if (data.length < end + 2) return { kind: "incomplete" };
    host = [...data.subarray(4, end)].join(".");
  } else if (type === ATYP_IPV6) {
    end = 4 + 16;
    if (data.length < end + 2) return { kind: "incomplete" };
    host = ipv6Text(data.subarray(4, end));
  } else if (type === ATYP_DOMAIN) {
    if (data.length < 5) return { kind: "incomplete" };
    const length = data[4] as number;
    end = 5 + length;
    if (data.length < end + 2) return { kind: "incomplete" };
    host = data.subarray(5, end).toString("latin1");
    if (length === 0 || !HOST_NAME.test(host))
      return { kind: "error", reason: "the target is not a host name", reply: SocksReply.generalFailure };
  } else {
    return {
      kind: "error",
      reason: `address type ${type} is not supported`,
      reply: SocksReply.addressTypeNotSupported,
    };
  }
  const port = data.readUInt16BE(end);
  if (port === 0) return { kind: "error", reason: "port 0", reply: SocksReply.generalFailure };
  return { kind: "ok", value: { host, port }, consumed: end + 2 };
}

/** The canonical (compressed, lower-case) text of 16 address bytes, as a URL would write it. */
function ipv6Text(bytes: Buffer): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  return new URL(`http://[${groups.join(":")}]/`).hostname.replace(/^\[(.*)\]$/, "$1");
}

/** A reply with an all-zero bound address: the client needs only the code. */
export function replyBytes(code: number): Buffer {
  return Buffer.from([VERSION, code, 0, ATYP_IPV4, 0, 0, 0, 0, 0, 0]);
}

function replyForError(error: NodeJS.ErrnoException): number {
  switch (error.code) {
    case "ECONNREFUSED":
      return SocksReply.connectionRefused;
    case "ENETUNREACH":
      return SocksReply.networkUnreachable;
    case "EHOSTUNREACH":
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return SocksReply.hostUnreachable;
    case "ETIMEDOUT":
      return SocksReply.ttlExpired;
    default:
      return SocksReply.generalFailure;
  }
}

/** Serves one client connection: handshake, the domain decision, then a plain byte tunnel. */
export function serveSocks5(client: Socket, lists: DomainLists): void {
  let buffered = Buffer.alloc(0);
  let stage: "greeting" | "request" = "greeting";
  client.on("error", () => {});
  client.setTimeout(HANDSHAKE_TIMEOUT_MS, () => client.destroy());

  const onData = (chunk: Buffer) => {
    // Never more than one chunk beyond the handshake: both parts have a fixed upper size (257 and
    // 262 bytes), and reading stops once the request is whole.
    buffered = Buffer.concat([buffered, chunk]);
    if (stage === "greeting") {
      const greeting = parseGreeting(buffered);
      if (greeting.kind === "incomplete") return;
      if (greeting.kind === "error") {
        client.off("data", onData);
        if (greeting.reply === undefined) client.destroy();
        else client.end(Buffer.from([VERSION, greeting.reply]));
        return;
      }
      buffered = buffered.subarray(greeting.consumed);
      stage = "request";
      client.write(Buffer.from([VERSION, NO_AUTHENTICATION]));
    }
    const request = parseRequest(buffered);
    if (request.kind === "incomplete") return;
    client.off("data", onData);
    client.pause();
    if (request.kind === "error") {
      client.end(replyBytes(request.reply ?? SocksReply.generalFailure));
      return;
    }
    // Bytes a client sent before the reply (optimistic data) go to the target once connected.
    open(client, request.value, buffered.subarray(request.consumed), lists);
  };
  client.on("data", onData);
}

function open(client: Socket, target: SocksTarget, early: Buffer, lists: DomainLists): void {
  if (!decideHost(target.host, lists).allowed) {
    client.end(replyBytes(SocksReply.notAllowedByRuleset));
    return;
  }
  let connected = false;
  const upstream = connect(target.port, target.host, () => {
    connected = true;
    client.setTimeout(0);
    client.write(replyBytes(SocksReply.succeeded));
    if (early.length) upstream.write(early);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on("error", (error: NodeJS.ErrnoException) => {
    if (!connected && !client.writableEnded) client.end(replyBytes(replyForError(error)));
    else client.destroy();
  });
  client.on("close", () => upstream.destroy());
}
