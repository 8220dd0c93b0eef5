import type { Profile } from '../../../schema/api/profile';
import type { ApiClient } from '../api/client';

export interface AuthUser {
  /** Cognito `sub`; also the profile id. */
  userId: string;
  email: string;
  /** The `name` attribute given at sign-up (may be empty for external identity providers). */
  name: string;
}

export interface AuthSession {
  user: AuthUser;
  /** `cognito:groups` from the ID token. */
  groups: string[];
}

export type AuthEventName = 'signedIn' | 'signedOut' | 'tokenRefresh' | 'tokenRefresh_failure' | 'signInWithRedirect' | 'signInWithRedirect_failure' | 'other';

export interface AuthEvent {
  name: AuthEventName;
  /** For failures: the provider's message, when it gave one. */
  message?: string;
}

/** What the app needs from the identity provider; the Amplify implementation lives in amplifyService.ts. */
export interface AuthService {
  /** The current session, refreshed if needed; null when signed out. */
  getSession: () => Promise<AuthSession | null>;
  getIdToken: () => Promise<string | null>;
  /** Resolves when signed in; throws an Error whose message can be shown to the user. */
  signIn: (email: string, password: string) => Promise<void>;
  signUp: (email: string, password: string, fullName: string) => Promise<void>;
  /** Confirms a new account with the code from the confirmation email; throws an Error with the server's message. */
  confirmSignUp: (username: string, code: string) => Promise<void>;
  /** Starts Cognito's forgot-password flow: a code by email (none, silently, for an unknown address). */
  resetPassword: (email: string) => Promise<void>;
  /** Sets the new password with the emailed code; throws an Error with the server's message. */
  confirmResetPassword: (email: string, code: string, newPassword: string) => Promise<void>;
  /** Redirects the browser to the hosted UI; throws when no provider is configured. */
  signInWithGoogle: () => Promise<void>;
  signOut: () => Promise<void>;
  onAuthEvent(listener: (event: AuthEvent) => void): () => void;
}

export type AuthResult = { error: Error | null };

export type SignUpResult =
  | { error: Error; confirmedLocally?: undefined }
  /** confirmedLocally: the local server confirmed the account (mode 'local'); otherwise Cognito emails a link. */
  | { error: null; confirmedLocally: boolean };

export type ResetPasswordResult =
  | { error: Error; localCode?: undefined }
  /** localCode: locally no email is sent, so the local server gives the code (null: no account, or none yet). */
  | { error: null; localCode: string | null };

export interface AuthContextValue {
  user: AuthUser | null;
  profile: Profile | null;
  /** Set when GET /api/profile failed for a signed-in user. */
  profileError: string | null;
  isAdmin: boolean;
  /** True until the stored session has been checked (see spec §4 Auth). */
  loading: boolean;
  signIn: (email: string, password: string) => Promise<AuthResult>;
  signUp: (email: string, password: string, fullName: string) => Promise<SignUpResult>;
  /** Confirms a new account from the emailed link (/auth?username=…&code=…). */
  confirmSignUp: (username: string, code: string) => Promise<AuthResult>;
  /** Emails a password reset code (locally: returns it). */
  resetPassword: (email: string) => Promise<ResetPasswordResult>;
  confirmResetPassword: (email: string, code: string, newPassword: string) => Promise<AuthResult>;
  signInWithGoogle: () => Promise<AuthResult>;
  /** Throws when signing out failed. */
  signOut: () => Promise<void>;
  refreshProfile: () => Promise<void>;
  /**
   * Puts what the server just answered (a subscription sync, a saved profile) into the loaded profile,
   * so the sidebar's plan badge and usage bar show it at once, without another GET /api/profile.
   */
  patchProfile: (patch: Partial<Profile>) => void;
  /** API client that sends the current ID token. */
  api: ApiClient;
}
