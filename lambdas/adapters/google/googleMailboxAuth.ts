/**
 * The mailbox connection's OAuth side in AWS: Google's consent screen and token endpoint (googleapis
 * OAuth2). Asks for offline access (a refresh token) and exactly two scopes, gmail.send and
 * userinfo.email (spec §5). No `openid`: Google already returns an ID token for the userinfo.email
 * scope, and if one is ever missing the address comes from the userinfo endpoint, which that scope
 * allows. The mailbox's address and Workspace domain (`hd`) come from the verified ID token.
 */
// Only the OAuth 2 API of googleapis: the whole package would put every Google API (~14 MB) in each bundle.
import { auth as googleAuth, oauth2 } from 'googleapis/build/src/apis/oauth2/index.js';
import { MailboxAuthError } from '../../core/errors';
import type { AuthorizedMailbox, MailboxAuthProvider } from '../../ports';
import { GMAIL_SEND_SCOPE, MAILBOX_SCOPES } from './scopes';

type OAuth2Client = InstanceType<typeof googleAuth.OAuth2>;

const exchangeFailed = (message: string, cause?: unknown) =>
  new MailboxAuthError('token_exchange_failed', message, cause === undefined ? undefined : { cause });

export class GoogleMailboxAuth implements MailboxAuthProvider {
  constructor(readonly client: { clientId: string; clientSecret: () => Promise<string> }) {}

  /** The consent URL needs no secret: a client without one is enough to build it. (Async as the port is: its adapter may load on first use.) */
  authorizationUrl({ state, redirectUri }: { state: string; redirectUri: string }): Promise<string> {
    const oauth = new googleAuth.OAuth2({ clientId: this.client.clientId, redirectUri });
    const url = oauth.generateAuthUrl({
      access_type: 'offline',
      // Google returns a refresh token on the first consent only; `consent` asks again so every connect gets one.
      prompt: 'consent',
      scope: [...MAILBOX_SCOPES],
      // Only these scopes: none granted earlier to this client are folded in.
      include_granted_scopes: false,
      state,
    });
    return Promise.resolve(url);
  }

  private async oauthClient(redirectUri?: string): Promise<OAuth2Client> {
    return new googleAuth.OAuth2({ clientId: this.client.clientId, clientSecret: await this.client.clientSecret(), ...(redirectUri ? { redirectUri } : {}) });
  }

  async exchangeCode({ code, redirectUri }: { code: string; redirectUri: string }): Promise<AuthorizedMailbox> {
    const oauth = await this.oauthClient(redirectUri);
    let tokens;
    try {
      ({ tokens } = await oauth.getToken({ code, redirect_uri: redirectUri }));
    } catch (error) {
      throw exchangeFailed('Google refused the authorization code.', error);
    }
    if (!tokens.refresh_token) throw exchangeFailed('Google returned no refresh token (offline access was not granted).');
    const granted = new Set((tokens.scope ?? '').split(' ').filter(Boolean));
    // Google lets a person untick a scope on the consent screen: without gmail.send the mailbox cannot send.
    if (typeof tokens.scope === 'string' && !granted.has(GMAIL_SEND_SCOPE)) {
      throw exchangeFailed('Permission to send email was not granted.');
    }
    const identity = await this.identity(oauth, tokens.id_token ?? undefined, tokens.access_token ?? undefined);
    return { refreshToken: tokens.refresh_token, email: identity.email, hostedDomain: identity.hostedDomain };
  }

  /** The address and Workspace domain: from the ID token (verified against our client id), else userinfo. */
  private async identity(
    oauth: OAuth2Client,
    idToken: string | undefined,
    accessToken: string | undefined,
  ): Promise<{ email: string; hostedDomain: string | null }> {
    try {
      if (idToken) {
        const payload = (await oauth.verifyIdToken({ idToken, audience: this.client.clientId })).getPayload();
        if (payload?.email) return { email: payload.email, hostedDomain: payload.hd || null };
      }
      if (accessToken) {
        oauth.setCredentials({ access_token: accessToken });
        const { data } = await oauth2({ version: 'v2', auth: oauth }).userinfo.get();
        if (data.email) return { email: data.email, hostedDomain: data.hd || null };
      }
    } catch (error) {
      throw exchangeFailed('The mailbox address could not be read from Google.', error);
    }
    throw exchangeFailed('Google did not say which mailbox was authorized.');
  }

  async revoke(refreshToken: string): Promise<void> {
    try {
      await (await this.oauthClient()).revokeToken(refreshToken);
    } catch {
      // Best effort: the token is deleted on our side either way; the person can also revoke it in their Google account.
    }
  }
}
