import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { LoginResult, User } from '../api/types';
import { api, setUnauthorizedHandler } from '../api/client';
import { clearToken, readToken, writeToken } from '../api/session-token';

export type SessionUser = LoginResult['user'];

interface Session {
  /** undefined while a stored token is being checked; null when logged out. */
  user: SessionUser | null | undefined;
  /** Why the user is looking at the login screen, when it was not their choice. */
  notice: string | null;
  login(username: string, password: string): Promise<void>;
  logout(): void;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<SessionUser | null | undefined>(() => (readToken() ? undefined : null));
  const [notice, setNotice] = useState<string | null>(null);

  const end = useCallback((reason: string | null) => {
    clearToken();
    setUser(null);
    setNotice(reason);
  }, []);

  useEffect(() => {
    setUnauthorizedHandler(() => end('Your session has ended. Please log in again.'));
    if (!readToken()) return;
    api.get<User>('/auth/me').then(
      (me) => setUser({ id: me.id, username: me.username, full_name: me.full_name, role: me.role }),
      () => end(null),
    );
  }, [end]);

  const login = useCallback(async (username: string, password: string) => {
    const result = await api.post<LoginResult>('/auth/login', { username, password });
    writeToken(result.token);
    setNotice(null);
    setUser(result.user);
  }, []);

  const logout = useCallback(() => {
    end(null);
    window.location.hash = '/';
  }, [end]);

  const value = useMemo(() => ({ user, notice, login, logout }), [user, notice, login, logout]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The logged-in user; only for components rendered behind the login screen. */
export function useUser(): SessionUser {
  const { user } = useSession();
  if (!user) throw new Error('useUser without a logged-in user');
  return user;
}
