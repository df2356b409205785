// A real OAuth 2.1 authorization server and an MCP server it protects, both on 127.0.0.1, built
// from the MCP SDK's server-side pieces (mcpAuthRouter: metadata, dynamic client registration,
// /authorize, /token with PKCE checked by the SDK; requireBearerAuth in front of /mcp). The
// authorization page approves at once (a scripted browser follows its redirect), and tokens can be
// made to expire on demand to exercise refresh.
import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import { InvalidGrantError, InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { AuthorizationParams, OAuthServerProvider } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import express, { type Response } from "express";

export interface OAuthFixture {
  url: string;
  mcpUrl: string;
  /** Grants seen at /token, in order ("authorization_code", "refresh_token"). */
  grants: string[];
  /** Clients registered through dynamic client registration. */
  registrations: number;
  /** Makes every access token issued so far invalid (as if expired). */
  expireAccessTokens(): void;
  /** Access tokens currently accepted. */
  liveAccessTokens(): string[];
  close(): Promise<void>;
}

class Clients implements OAuthRegisteredClientsStore {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  onRegister: () => void = () => undefined;
  getClient(id: string) {
    return this.clients.get(id);
  }
  registerClient(client: OAuthClientInformationFull) {
    this.clients.set(client.client_id, client);
    this.onRegister();
    return client;
  }
}

class AutoApprovingProvider implements OAuthServerProvider {
  readonly clientsStore = new Clients();
  private readonly codes = new Map<string, { clientId: string; challenge: string; redirectUri: string }>();
  readonly access = new Map<string, { clientId: string }>();
  private readonly refresh = new Map<string, { clientId: string }>();
  readonly grants: string[] = [];

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const code = randomUUID();
    this.codes.set(code, {
      clientId: client.client_id,
      challenge: params.codeChallenge,
      redirectUri: params.redirectUri,
    });
    const target = new URL(params.redirectUri);
    target.searchParams.set("code", code);
    if (params.state) target.searchParams.set("state", params.state);
    res.redirect(302, target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const entry = this.codes.get(code);
    if (!entry) throw new InvalidGrantError("unknown authorization code");
    return entry.challenge;
  }

  private issue(clientId: string): OAuthTokens {
    const accessToken = `at-${randomUUID()}`;
    const refreshToken = `rt-${randomUUID()}`;
    this.access.set(accessToken, { clientId });
    this.refresh.set(refreshToken, { clientId });
    return { access_token: accessToken, token_type: "Bearer", expires_in: 3600, refresh_token: refreshToken };
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const entry = this.codes.get(code);
    if (!entry || entry.clientId !== client.client_id) throw new InvalidGrantError("unknown authorization code");
    this.codes.delete(code);
    this.grants.push("authorization_code");
    return this.issue(client.client_id);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    const entry = this.refresh.get(refreshToken);
    if (!entry || entry.clientId !== client.client_id) throw new InvalidGrantError("unknown refresh token");
    this.refresh.delete(refreshToken);
    this.grants.push("refresh_token");
    return this.issue(client.client_id);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const entry = this.access.get(token);
    if (!entry) throw new InvalidTokenError("the access token is not valid");
    return { token, clientId: entry.clientId, scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 };
  }
}

export async function startOAuthFixture(): Promise<OAuthFixture> {
  const provider = new AutoApprovingProvider();
  let registrations = 0;
  provider.clientsStore.onRegister = () => {
    registrations++;
  };
  const app = express();
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const mcpUrl = `${base}/mcp`;
  app.use(
    mcpAuthRouter({
      provider,
      issuerUrl: new URL(base),
      resourceServerUrl: new URL(mcpUrl),
      tokenOptions: { rateLimit: false },
      clientRegistrationOptions: { rateLimit: false },
      authorizationOptions: { rateLimit: false },
    }),
  );
  const bearer = requireBearerAuth({
    verifier: provider,
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(new URL(mcpUrl)),
  });
  app.post("/mcp", bearer, express.json(), async (req, res) => {
    const mcp = new McpServer({ name: "secure", version: "1.0.0" });
    mcp.registerTool("whoami", { description: "Who the bearer token says you are" }, async (extra) => ({
      content: [{ type: "text", text: `client ${extra.authInfo?.clientId ?? "unknown"}` }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  app.get("/mcp", bearer, (_req, res) => void res.status(405).end());
  return {
    url: base,
    mcpUrl,
    grants: provider.grants,
    get registrations() {
      return registrations;
    },
    expireAccessTokens: () => provider.access.clear(),
    liveAccessTokens: () => [...provider.access.keys()],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The browser step: open the authorization page and follow its redirects (plain GETs) to the end. */
export async function followInBrowser(url: string): Promise<{ status: number; body: string }> {
  let next = url;
  for (let hops = 0; hops < 5; hops++) {
    const response = await fetch(next, { redirect: "manual" });
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location) {
      next = new URL(location, next).href;
      continue;
    }
    return { status: response.status, body: await response.text() };
  }
  throw new Error("too many redirects");
}
