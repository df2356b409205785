// The MCP SDK's OAuthClientProvider for one server, over the token file (store.ts). The SDK does
// the protocol (metadata discovery, dynamic client registration, PKCE, the code exchange,
// refresh); this says where things are kept and what "send the user to the authorization page"
// means: during a login, hand the URL to whoever shows it; during an ordinary connection, only
// note that the user must sign in (the server becomes `needs-auth`), never start a flow unasked.
import { randomBytes } from "node:crypto";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import { readServerAuth, updateServerAuth } from "./store.js";

export interface ProviderOptions {
  name: string;
  serverUrl: string;
  /** The redirect listener's URL, during a login. */
  redirectUrl?: string;
  /** Called with the authorization page during a login. */
  onAuthorizationUrl?: (url: URL) => void;
}

export class WardenOAuthProvider implements OAuthClientProvider {
  /** Set when the SDK wanted the user to sign in (outside a login). */
  needsUserSignIn = false;
  private readonly stateValue = randomBytes(16).toString("base64url");

  constructor(private readonly options: ProviderOptions) {}

  get redirectUrl(): string | undefined {
    return this.options.redirectUrl ?? readServerAuth(this.options.name, this.options.serverUrl)?.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const redirect = this.redirectUrl;
    return {
      client_name: "Warden",
      redirect_uris: redirect ? [redirect] : [],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }

  /** The `state` sent with the authorization request; the callback must bring it back. */
  state(): string {
    return this.stateValue;
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    const entry = readServerAuth(this.options.name, this.options.serverUrl);
    // A registration for another redirect address would be refused at the authorization page.
    if (this.options.redirectUrl && entry?.redirectUrl !== this.options.redirectUrl) return undefined;
    return entry?.clientInformation as OAuthClientInformationMixed | undefined;
  }

  saveClientInformation(clientInformation: OAuthClientInformationMixed): void {
    updateServerAuth(this.options.name, this.options.serverUrl, (entry) => ({
      ...entry,
      clientInformation: clientInformation as unknown as Record<string, unknown>,
      ...(this.redirectUrl ? { redirectUrl: this.redirectUrl } : {}),
    }));
  }

  tokens(): OAuthTokens | undefined {
    return readServerAuth(this.options.name, this.options.serverUrl)?.tokens as OAuthTokens | undefined;
  }

  saveTokens(tokens: OAuthTokens): void {
    updateServerAuth(this.options.name, this.options.serverUrl, (entry) => ({
      ...entry,
      tokens: tokens as unknown as Record<string, unknown>,
      tokensSavedAt: Date.now(),
    }));
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    if (this.options.onAuthorizationUrl) this.options.onAuthorizationUrl(authorizationUrl);
    else this.needsUserSignIn = true;
  }

  saveCodeVerifier(codeVerifier: string): void {
    updateServerAuth(this.options.name, this.options.serverUrl, (entry) => ({ ...entry, codeVerifier }));
  }

  codeVerifier(): string {
    const verifier = readServerAuth(this.options.name, this.options.serverUrl)?.codeVerifier;
    if (!verifier) throw new Error("no PKCE code verifier saved for this login");
    return verifier;
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    updateServerAuth(this.options.name, this.options.serverUrl, (entry) => {
      const next = { ...entry };
      if (scope === "all" || scope === "client") delete next.clientInformation;
      if (scope === "all" || scope === "tokens") delete next.tokens;
      if (scope === "all" || scope === "verifier") delete next.codeVerifier;
      return next;
    });
  }
}
