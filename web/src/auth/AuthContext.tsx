import { type ClientUser, type ServerUser, type SignInResponse, toClientUser } from '@guildhall/common';
import { createContext, type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { ACCESS_CHANGED_EVENT, ApiError, apiFetch, SESSION_INVALID_EVENT } from '../api/client.ts';
import { clearApprovedCache, getApprovedUsers } from './approved-cache.ts';
import { clearStoredAuth, readStoredAuth, storeAuth, storeUser } from './storage.ts';

export type AuthStatus = 'loading' | 'signed-out' | 'signed-in';

export type AuthState = {
  status: AuthStatus;
  user: ClientUser | null;
  token: string | null;
  /** Stores a successful sign-in response (Discord or access code). */
  signIn: (res: SignInResponse) => void;
  /** Revokes the session on the server and clears the local copy. */
  logout: () => Promise<void>;
  /** Re-reads the user from the server (after a level change, for example). */
  refresh: () => Promise<void>;
};

export const AuthContext = createContext<AuthState | null>(null);

/** Auth state of portal-core §4: loading → signed-out | signed-in, validated against the server on start. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<AuthStatus>('loading');
  const [user, setUser] = useState<ServerUser | null>(null);
  const [token, setToken] = useState<string | null>(null);

  const clear = useCallback(() => {
    clearStoredAuth();
    clearApprovedCache();
    setUser(null);
    setToken(null);
    setStatus('signed-out');
  }, []);

  const validate = useCallback(
    async (stored: { token: string; user: ServerUser }) => {
      try {
        const res = await apiFetch<{ user: ServerUser }>('/api/auth/validate', { token: stored.token });
        const fresh: ServerUser = { ...res.user, access_level: res.user.access_level ?? 'viewer' };
        storeUser(fresh);
        setUser(fresh);
        setToken(stored.token);
        setStatus('signed-in');
        void getApprovedUsers().catch(() => undefined);
      } catch (e) {
        if (e instanceof ApiError && e.status !== 0 && e.status < 500 && e.status !== 429) {
          clear();
        } else {
          // Server unreachable: keep the stored identity; the next request will tell.
          setUser(stored.user);
          setToken(stored.token);
          setStatus('signed-in');
        }
      }
    },
    [clear],
  );

  useEffect(() => {
    const stored = readStoredAuth();
    if (!stored) {
      setStatus('signed-out');
      return;
    }
    void validate(stored);
  }, [validate]);

  useEffect(() => {
    const onInvalid = () => clear();
    window.addEventListener(SESSION_INVALID_EVENT, onInvalid);
    return () => window.removeEventListener(SESSION_INVALID_EVENT, onInvalid);
  }, [clear]);

  useEffect(() => {
    // The level changed while signed in (the realtime channel said so): the navigation and guards follow now.
    const onChanged = () => {
      const stored = readStoredAuth();
      if (stored) void validate(stored);
    };
    window.addEventListener(ACCESS_CHANGED_EVENT, onChanged);
    return () => window.removeEventListener(ACCESS_CHANGED_EVENT, onChanged);
  }, [validate]);

  const value = useMemo<AuthState>(
    () => ({
      status,
      user: user ? toClientUser(user) : null,
      token,
      signIn(res) {
        storeAuth(res.token, res.user);
        setUser(res.user);
        setToken(res.token);
        setStatus('signed-in');
        void getApprovedUsers({ force: true }).catch(() => undefined);
      },
      async logout() {
        // Revoke on the server first, then forget locally whatever the server said.
        if (token) await apiFetch('/api/auth/logout', { method: 'POST', token }).catch(() => undefined);
        clear();
      },
      async refresh() {
        const stored = readStoredAuth();
        if (stored) await validate(stored);
      },
    }),
    [status, user, token, clear, validate],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
