import { useState, type FormEvent } from 'react';
import { ApiError } from '../../api/client';
import { useSession } from '../../app/session';

const explain = (err: unknown) => {
  if (err instanceof ApiError && err.code === 'account_disabled') return 'This account has been disabled. Ask an administrator to enable it.';
  return err instanceof Error ? err.message : 'Logging in failed.';
};

export function LoginPage() {
  const { login, notice } = useSession();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await login(username.trim(), password);
    } catch (err) {
      setError(explain(err));
      setBusy(false);
    }
  };

  return (
    <div className="login-screen">
      <form className="login-card" onSubmit={submit} aria-label="Log in">
        <div className="brand brand-large">
          <span className="brand-mark" aria-hidden="true">
            T
          </span>
          Trainbench
        </div>
        <p className="muted">Sales training, products and exams in one place.</p>
        {notice && !error && <div className="notice notice-warning">{notice}</div>}
        {error && (
          <div className="notice notice-error" role="alert">
            {error}
          </div>
        )}
        <label className="field">
          <span>Username</span>
          <input name="username" autoComplete="username" autoFocus required value={username} onChange={(e) => setUsername(e.target.value)} />
        </label>
        <label className="field">
          <span>Password</span>
          <input name="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <button type="submit" className="button button-primary button-block" disabled={busy}>
          {busy ? 'Logging in…' : 'Log in'}
        </button>
      </form>
    </div>
  );
}
