import { useCallback, useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Profile } from '../../../schema/api/profile';
import type { RuntimeConfig } from '../../../schema/api/runtimeConfig';
import { LOCAL_CONFIRM_SIGNUP_PATH, LOCAL_RESET_CODE_PATH } from '../../../schema/localPaths';
import { ADMIN_GROUP, apiPath } from '../../../schema/routes';
import { createApiClient, errorMessage } from '../api/client';
import { NotificationsContext } from '../notifications/NotificationsContext';
import { AuthContext } from './AuthContext';
import { clearStoredAuthKeys, hasStoredAuthState, isOAuthCallback, removeCorruptedAuthKeys } from './storage';
import type { AuthContextValue, AuthEvent, AuthResult, AuthService, AuthSession, AuthUser, ResetPasswordResult, SignUpResult } from './types';

/** Spec §9 auth timing. */
export const SESSION_CHECK_TIMEOUT_MS = 2000;
export const LOADING_FALLBACK_MS = 3000;

export type AuthServiceLoader = (config: RuntimeConfig) => Promise<AuthService>;

const loadAmplifyService: AuthServiceLoader = async (config) => {
  const { createAmplifyAuthService } = await import('./amplifyService');
  return createAmplifyAuthService(config);
};

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The session check timed out after ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** The profile check is only downloaded once someone is signed in (it is not on the landing page's path). */
const loadProfileCheck = () => import('./checkProfile').then((module) => module.checkProfile);

const asError = (error: unknown) => (error instanceof Error ? error : new Error(errorMessage(error)));

interface AuthProviderProps {
  config: RuntimeConfig;
  children: ReactNode;
  /** Injected in tests; defaults to the Amplify implementation, loaded on demand. */
  loadService?: AuthServiceLoader;
  fetchImpl?: typeof fetch;
}

/**
 * Auth state for the app (spec §4 "Auth"). Loading starts true when there is a stored session (or an
 * OAuth redirect) to check, and ends after the first auth event, after the session check succeeds,
 * fails or times out (2 s; stored auth keys are then cleared), or after a 3 s fallback. With nothing
 * stored the visitor is signed out at once and Amplify is not downloaded until it is needed.
 */
export function AuthProvider({ config, children, loadService = loadAmplifyService, fetchImpl }: AuthProviderProps) {
  const notifications = useContext(NotificationsContext);
  const notifyRef = useRef(notifications?.notify);
  useLayoutEffect(() => {
    notifyRef.current = notifications?.notify;
  });

  const [shouldCheckSession] = useState(() => {
    removeCorruptedAuthKeys();
    return hasStoredAuthState() || isOAuthCallback();
  });
  const [loading, setLoading] = useState(shouldCheckSession);
  const [user, setUser] = useState<AuthUser | null>(null);
  const [groups, setGroups] = useState<string[]>([]);
  const [profile, setProfile] = useState<Profile | null>(null);
  const [profileError, setProfileError] = useState<string | null>(null);
  const [service, setService] = useState<AuthService | null>(null);

  const servicePromise = useRef<Promise<AuthService> | null>(null);
  const loaderRef = useRef(() => loadService(config));
  useLayoutEffect(() => {
    loaderRef.current = () => loadService(config);
  });
  const currentUserId = useRef<string | null>(null);
  const profileRequest = useRef<{ userId: string; promise: Promise<void> } | null>(null);

  const getService = useCallback((): Promise<AuthService> => {
    if (!servicePromise.current) {
      servicePromise.current = loaderRef.current().then(
        (loaded) => {
          setService(loaded);
          return loaded;
        },
        (error: unknown) => {
          servicePromise.current = null; // let the next action retry the download
          throw asError(error);
        },
      );
    }
    return servicePromise.current;
  }, []);

  const getIdToken = useCallback(async () => (await getService()).getIdToken(), [getService]);
  // eslint-disable-next-line react-hooks/refs -- createApiClient keeps getIdToken for later requests; nothing reads a ref during render
  const api = useMemo(() => createApiClient(getIdToken, fetchImpl), [getIdToken, fetchImpl]);

  const loadProfile = useCallback(
    (userId: string): Promise<void> => {
      // One request per user at a time: sign-in and the `signedIn` event both ask for the profile.
      if (profileRequest.current?.userId === userId) return profileRequest.current.promise;
      const promise = Promise.all([api.get(apiPath('GET /api/profile')), loadProfileCheck()])
        .then(([data, checkProfile]) => {
          const checked = checkProfile(data);
          if (!checked) throw new Error('The server sent a profile in an unexpected format.');
          return checked;
        })
        .then(
          (loaded) => {
            if (currentUserId.current !== userId) return;
            setProfile(loaded);
            setProfileError(null);
          },
          (error: unknown) => {
            console.error('Failed to load profile', error);
            if (currentUserId.current !== userId) return;
            setProfileError(errorMessage(error, 'Failed to load profile'));
          },
        )
        .finally(() => {
          if (profileRequest.current?.promise === promise) profileRequest.current = null;
        });
      profileRequest.current = { userId, promise };
      return promise;
    },
    [api],
  );

  const applySession = useCallback(
    (session: AuthSession | null) => {
      if (!session) {
        currentUserId.current = null;
        profileRequest.current = null;
        setUser(null);
        setGroups([]);
        setProfile(null);
        setProfileError(null);
        return;
      }
      const changed = currentUserId.current !== session.user.userId;
      currentUserId.current = session.user.userId;
      setUser(session.user);
      setGroups(session.groups);
      if (changed) {
        setProfile(null);
        setProfileError(null);
      }
      void loadProfile(session.user.userId);
    },
    [loadProfile],
  );

  // The first session check.
  useEffect(() => {
    if (!shouldCheckSession) return;
    let active = true;
    const fallback = setTimeout(() => setLoading(false), LOADING_FALLBACK_MS);
    getService()
      .then(
        (loaded) =>
          withTimeout(loaded.getSession(), SESSION_CHECK_TIMEOUT_MS).then(
            (session) => {
              if (active) applySession(session);
            },
            (error: unknown) => {
              if (!active) return;
              console.error('Session check failed; clearing stored auth keys', error);
              clearStoredAuthKeys();
              applySession(null);
            },
          ),
        (error: unknown) => console.error('Could not load the sign-in library', error),
      )
      .finally(() => {
        clearTimeout(fallback);
        if (active) setLoading(false);
      });
    return () => {
      active = false;
      clearTimeout(fallback);
    };
  }, [shouldCheckSession, getService, applySession]);

  // Auth events (sign-in, sign-out, token refresh, OAuth redirect), once the library is loaded.
  useEffect(() => {
    if (!service) return;
    const refresh = () =>
      service.getSession().then(applySession, (error: unknown) => {
        console.error('Could not read the session', error);
        applySession(null);
      });
    return service.onAuthEvent((event: AuthEvent) => {
      switch (event.name) {
        case 'signedIn':
        case 'tokenRefresh':
        case 'signInWithRedirect':
        case 'tokenRefresh_failure':
          void refresh();
          break;
        case 'signedOut':
          applySession(null);
          break;
        case 'signInWithRedirect_failure':
          notifyRef.current?.({
            type: 'error',
            title: 'Authentication Error',
            message: event.message || 'Failed to authenticate with Google',
          });
          break;
        default:
          break;
      }
      setLoading(false);
    });
  }, [service, applySession]);

  const signIn = useCallback(
    async (email: string, password: string) => {
      try {
        const loaded = await getService();
        await loaded.signIn(email, password);
        applySession(await loaded.getSession());
        setLoading(false);
        return { error: null };
      } catch (error) {
        console.error('Sign-in failed', error);
        return { error: asError(error) };
      }
    },
    [getService, applySession],
  );

  const signUp = useCallback(
    async (email: string, password: string, fullName: string): Promise<SignUpResult> => {
      try {
        const loaded = await getService();
        await loaded.signUp(email, password, fullName);
        if (config.mode !== 'local') return { error: null, confirmedLocally: false };
        // Locally there is no email: the local server confirms the new account (DESIGN.md §1).
        await api.request(LOCAL_CONFIRM_SIGNUP_PATH, { method: 'POST', body: { email }, auth: false });
        return { error: null, confirmedLocally: true };
      } catch (error) {
        console.error('Sign-up failed', error);
        return { error: asError(error) };
      }
    },
    [getService, config.mode, api],
  );

  const confirmSignUp = useCallback(
    async (username: string, code: string): Promise<AuthResult> => {
      try {
        await (await getService()).confirmSignUp(username, code);
        return { error: null };
      } catch (error) {
        console.error('Sign-up confirmation failed', error);
        return { error: asError(error) };
      }
    },
    [getService],
  );

  const resetPassword = useCallback(
    async (email: string): Promise<ResetPasswordResult> => {
      try {
        await (await getService()).resetPassword(email);
        if (config.mode !== 'local') return { error: null, localCode: null };
        // Locally there is no email: the local server gives the code cognito-local keeps (DESIGN.md §1).
        const localCode = await api.request(LOCAL_RESET_CODE_PATH, {
          method: 'POST',
          body: { email },
          auth: false,
          parse: (data) => {
            const code = (data as { code?: unknown } | null)?.code;
            return typeof code === 'string' ? code : null;
          },
        });
        return { error: null, localCode };
      } catch (error) {
        console.error('Password reset failed', error);
        return { error: asError(error) };
      }
    },
    [getService, config.mode, api],
  );

  const confirmResetPassword = useCallback(
    async (email: string, code: string, newPassword: string): Promise<AuthResult> => {
      try {
        await (await getService()).confirmResetPassword(email, code, newPassword);
        return { error: null };
      } catch (error) {
        console.error('Password reset confirmation failed', error);
        return { error: asError(error) };
      }
    },
    [getService],
  );

  const signInWithGoogle = useCallback(async () => {
    try {
      await (await getService()).signInWithGoogle();
      return { error: null };
    } catch (error) {
      console.error('Google sign-in failed', error);
      return { error: asError(error) };
    }
  }, [getService]);

  const signOut = useCallback(async () => {
    try {
      await (await getService()).signOut();
    } catch (error) {
      console.error('Sign-out failed', error);
      throw asError(error);
    }
    applySession(null);
  }, [getService, applySession]);

  const refreshProfile = useCallback(async () => {
    if (currentUserId.current) await loadProfile(currentUserId.current);
  }, [loadProfile]);

  const patchProfile = useCallback((patch: Partial<Profile>) => {
    setProfile((current) => (current ? { ...current, ...patch } : current));
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      profile,
      profileError,
      isAdmin: groups.includes(ADMIN_GROUP),
      loading,
      signIn,
      signUp,
      confirmSignUp,
      resetPassword,
      confirmResetPassword,
      signInWithGoogle,
      signOut,
      refreshProfile,
      patchProfile,
      api,
    }),
    [
      user,
      profile,
      profileError,
      groups,
      loading,
      signIn,
      signUp,
      confirmSignUp,
      resetPassword,
      confirmResetPassword,
      signInWithGoogle,
      signOut,
      refreshProfile,
      patchProfile,
      api,
    ],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
