/**
 * The Mailer in AWS: the artist's own Gmail, through users.messages.send with the gmail.send scope.
 * The MIME is built by buildMime (the same bytes the local outbox stores). Google's errors become
 * MailerError kinds the sender acts on (DESIGN §4). A failure before the send request leaves (the client
 * secret's read, the token refresh) is a retry (DESIGN §13); a failure of the send request that cannot be
 * classified is rethrown untouched, which the sender records as an unknown outcome and never retries (a
 * second pitch is worse than none).
 */
import { auth as googleAuth, gmail as gmailApi } from 'googleapis/build/src/apis/gmail/index.js';
import { MailerError, type MailerFailure } from '../../core/errors';
import type { Mailer, OutgoingEmail } from '../../ports';
import { buildMime } from '../mime/mimeMessage';

/** The OAuth client the Gmail calls are made with: `new auth.OAuth2(id, secret)` with the mailbox's refresh token. */
export type GmailOAuthClient = InstanceType<typeof googleAuth.OAuth2>;

/** The one Gmail call this adapter makes (what a test fake provides). */
export interface GmailSendClient {
  users: {
    messages: {
      send(
        params: { userId: string; requestBody: { raw: string; threadId?: string } },
        options?: { retry?: boolean; timeout?: number },
      ): Promise<{ data: { id?: string | null; threadId?: string | null } }>;
    };
  };
}

/** Builds the Gmail client over an authorized OAuth client; tests pass a fake. */
export type GmailClientFactory = (auth: GmailOAuthClient) => GmailSendClient;

const realGmail: GmailClientFactory = (auth) => gmailApi({ version: 'v1', auth });

/** Under the sender's Lambda timeout: a send still running then has an unknown outcome anyway. */
const SEND_TIMEOUT_MS = 20_000;

/**
 * Each try of the access token's refresh (gaxios tries a refresh that got no answer three times): with
 * the send, well under the sender's Lambda timeout, so a refresh that hangs is a retry, never a crash.
 */
const TOKEN_TIMEOUT_MS = 5_000;

/** Authorized clients kept per refresh token, so a container reuses an access token for its hour. */
const MAX_CACHED_CLIENTS = 200;

/**
 * Connection failures of the send request that mean it never reached Google: the send is retried with
 * back-off. A reset or a timeout may come after Gmail took the message, so those are unknown outcomes
 * (never retried: a second pitch to the same label is worse than a missing one, DESIGN §4). Before the
 * send request (the client secret, the token refresh) every failure but invalid_grant is a retry.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN']);

/** Gmail's error reasons (`error.errors[].reason`) for a user's per-second / per-minute quota. */
const RATE_REASONS = new Set(['rateLimitExceeded', 'userRateLimitExceeded']);
/** The mailbox's daily sending quota (or the project's daily quota) is used up. */
const DAILY_REASONS = new Set(['dailyLimitExceeded']);
/** The token works but lacks the gmail.send scope, or the account cannot send: every email would fail alike. */
const AUTH_REASONS = new Set(['insufficientPermissions', 'authError']);
const DAILY_MESSAGES = [/daily user sending limit exceeded/i, /daily gmail sending limit reached/i];

/** What a GaxiosError (gaxios 7) or an error thrown during the OAuth refresh carries, read defensively. */
interface GoogleErrorFacts {
  status: number | undefined;
  hasResponse: boolean;
  /** `error.errors[].reason` of the Gmail API body. */
  reasons: string[];
  /** The OAuth token endpoint's `error` (e.g. invalid_grant) when the refresh failed. */
  oauthError: string | undefined;
  messages: string[];
  /** System error codes of the error and its causes (native fetch nests them). */
  codes: string[];
}

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;

function factsOf(error: unknown): GoogleErrorFacts {
  const record = asRecord(error) ?? {};
  const response = asRecord(record.response);
  const data = asRecord(response?.data);
  const apiError = asRecord(data?.error);
  const status = typeof record.status === 'number' ? record.status : typeof response?.status === 'number' ? response.status : undefined;
  const reasons = Array.isArray(apiError?.errors)
    ? apiError.errors.map((entry) => asRecord(entry)?.reason).filter((reason): reason is string => typeof reason === 'string')
    : [];
  const messages = [record.message, apiError?.message, data?.error_description].filter((text): text is string => typeof text === 'string');
  const codes: string[] = [];
  for (let at: Record<string, unknown> | undefined = record, depth = 0; at && depth < 4; at = asRecord(at.cause), depth++) {
    if (typeof at.code === 'string') codes.push(at.code);
  }
  return {
    status,
    hasResponse: response !== undefined,
    reasons,
    oauthError: typeof data?.error === 'string' ? data.error : record.message === 'invalid_grant' ? 'invalid_grant' : undefined,
    messages,
    codes,
  };
}

/**
 * The kind of a Google failure, or undefined when the outcome is unknown. Order matters: Gmail answers a
 * used-up daily quota with 403 or 429, so the daily limit is recognised before the rate limits.
 */
export function classifyGmailError(error: unknown): MailerFailure | undefined {
  const facts = factsOf(error);
  const { status } = facts;
  if (facts.reasons.some((reason) => DAILY_REASONS.has(reason)) || facts.messages.some((text) => DAILY_MESSAGES.some((daily) => daily.test(text)))) {
    return 'daily_limit';
  }
  if (facts.oauthError === 'invalid_grant') return 'auth';
  // The token endpoint refused our own OAuth client (invalid_client after a secret rotation, …): nothing
  // was sent and the artist's mailbox is not at fault, so the email waits with back-off.
  if (facts.oauthError !== undefined) return 'transient';
  if (status === 401 || (status === 403 && facts.reasons.some((reason) => AUTH_REASONS.has(reason)))) return 'auth';
  if (status === 429 || (status === 403 && facts.reasons.some((reason) => RATE_REASONS.has(reason)))) return 'rate_limited';
  if (status !== undefined && status >= 500 && status <= 599) return 'transient';
  if (status !== undefined && status >= 400 && status <= 499) return 'rejected';
  if (!facts.hasResponse && facts.codes.some((code) => NETWORK_CODES.has(code))) return 'transient';
  return undefined;
}

const failureText: Record<MailerFailure, string> = {
  daily_limit: 'Daily Gmail sending limit reached',
  auth: 'The Gmail connection is no longer authorized',
  rate_limited: 'Gmail is rate limiting this mailbox',
  transient: 'Gmail is unavailable right now',
  rejected: 'Gmail refused this email',
};

/** Base64url without padding: the `raw` Gmail expects. */
const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** An OAuth client and the Gmail client made over it, for one refresh token. */
interface Authorized {
  oauth: GmailOAuthClient;
  gmail: GmailSendClient;
}

export class GmailMailer implements Mailer {
  private readonly clients = new Map<string, Authorized>();

  constructor(
    readonly client: { clientId: string; clientSecret: () => Promise<string> },
    private readonly gmailFor: GmailClientFactory = realGmail,
  ) {}

  send: Mailer['send'] = async (email: OutgoingEmail, credentials) => {
    const { raw } = await buildMime(email);
    const gmail = await this.authorized(credentials.refreshToken);
    let id: string | null | undefined;
    let threadId: string | null | undefined;
    // A reply names the first email's thread: Gmail files it there (for the sender) when the subject and
    // the In-Reply-To / References headers match that thread too, which outgoingEmail and buildMime ensure.
    const requestBody = { raw: base64url(raw), ...(email.replyTo ? { threadId: email.replyTo.threadId } : {}) };
    try {
      const response = await gmail.users.messages.send(
        { userId: 'me', requestBody },
        // Never retried here: a POST that may have been delivered must not go out twice.
        { retry: false, timeout: SEND_TIMEOUT_MS },
      );
      ({ id, threadId } = response.data);
    } catch (error) {
      const kind = classifyGmailError(error);
      if (kind === undefined) throw error;
      // A revoked token stays revoked: the next send builds a fresh client once reconnected.
      if (kind === 'auth') this.clients.delete(credentials.refreshToken);
      throw new MailerError(kind, failureText[kind], { cause: error });
    }
    if (!id) throw new Error('Gmail accepted the email but returned no message id');
    // Gmail always answers a threadId; were it missing, the message is its thread's first (a new thread's id is its first message's).
    return { providerMessageId: id, threadId: threadId || id };
  };

  /**
   * The Gmail client with a fresh access token, before anything is sent: the client secret is read and
   * the token refreshed here, not inside the send request, so their failures (a timeout, a reset) are
   * known to have sent nothing and the email is retried. invalid_grant is the mailbox's: auth.
   */
  private async authorized(refreshToken: string): Promise<GmailSendClient> {
    try {
      const { oauth, gmail } = await this.clientFor(refreshToken);
      await oauth.getAccessToken();
      return gmail;
    } catch (error) {
      const kind = classifyGmailError(error) === 'auth' ? 'auth' : 'transient';
      if (kind === 'auth') this.clients.delete(refreshToken);
      throw new MailerError(kind, failureText[kind], { cause: error });
    }
  }

  private async clientFor(refreshToken: string): Promise<Authorized> {
    const cached = this.clients.get(refreshToken);
    if (cached) return cached;
    const oauth = new googleAuth.OAuth2({
      clientId: this.client.clientId,
      clientSecret: await this.client.clientSecret(),
      transporterOptions: { timeout: TOKEN_TIMEOUT_MS },
    });
    oauth.setCredentials({ refresh_token: refreshToken });
    const authorized = { oauth, gmail: this.gmailFor(oauth) };
    const [oldest] = this.clients.keys();
    if (this.clients.size >= MAX_CACHED_CLIENTS && oldest !== undefined) this.clients.delete(oldest);
    this.clients.set(refreshToken, authorized);
    return authorized;
  }
}
