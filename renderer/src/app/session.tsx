import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { LoginResult, User } from '../api/types';
import { api, setUnauthorizedHandler } from '../api/client';
import { clearToken, readToken, writeToken } from '../api/session-token';
import { currentLanguage, setLanguage } from '../i18n';
import { queryClient } from './query-client';

/** Who is signed in: what the login answer says (the pages need no more, and need not wait for /auth/me). */
export type SessionUser = LoginResult['user'] & Pick<LoginResult, 'must_change_password'>;

const sessionUser = ({ id, username, full_name, role, must_change_password }: SessionUser): SessionUser => ({ id, username, full_name, role, must_change_password: !!must_change_password });

/** Why the login screen is showing when it was not the user's choice. */
export type SessionNotice = 'expired' | null;

interface Session {
  /** undefined while a stored token is being checked; null when logged out. */
  user: SessionUser | null | undefined;
  notice: SessionNotice;
  login(username: string, password: string): Promise<void>;
  logout(): void;
  /** Replaces the signed-in user after they changed something about themselves. */
  update(user: SessionUser): void;
}

const SessionContext = createContext<Session | null>(null);

/** Switches to the language the user chose last (on any machine), if they chose one. */
async function inTheirLanguage(me: User): Promise<User> {
  if (me.locale && me.locale !== currentLanguage()) await setLanguage(me.locale);
  return me;
}

/** A session kept from before a reload is checked as the app loads, beside its language and the page's code. */
const storedSession: Promise<User> | null = readToken() ? api.get<User>('/auth/me') : null;
storedSession?.catch(() => undefined);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<SessionUser | null | undefined>(() => (readToken() ? undefined : null));
  const [notice, setNotice] = useState<SessionNotice>(null);

  const end = useCallback((reason: SessionNotice) => {
    clearToken();
    queryClient.clear();
    setUser(null);
    setNotice(reason);
  }, []);

  useEffect(() => {
    setUnauthorizedHandler(() => end('expired'));
    storedSession?.then(inTheirLanguage).then((me) => setUser(sessionUser(me)), () => end(null));
  }, [end]);

  const login = useCallback(async (username: string, password: string) => {
    const result = await api.post<LoginResult>('/auth/login', { username, password });
    writeToken(result.token);
    setNotice(null);
    setUser(sessionUser({ ...result.user, must_change_password: result.must_change_password }));
    // The language they chose last, on any machine, arrives beside the first page's data rather than before it.
    void api.get<User>('/auth/me').then(inTheirLanguage, () => undefined);
  }, []);

  const logout = useCallback(() => {
    end(null);
    window.location.hash = '/';
  }, [end]);

  const update = useCallback((changed: SessionUser) => setUser(sessionUser(changed)), []);
  const value = useMemo(() => ({ user, notice, login, logout, update }), [user, notice, login, logout, update]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

/** The signed-in user; only for components rendered behind the login screen. */
export function useUser(): SessionUser {
  const { user } = useSession();
  if (!user) throw new Error('useUser without a signed-in user');
  return user;
}
