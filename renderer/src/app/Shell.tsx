import { useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation } from './router';
import { useUser, useSession } from './session';
import { renderRoute } from './routes';
import { useUnreadCount } from '../features/notifications/useUnreadCount';
import { desktopBridge } from './desktop';

interface NavItem {
  to: string;
  label: string;
  badge?: ReactNode;
}

function NavLink({ item, path }: { item: NavItem; path: string }) {
  const active = item.to === '/' ? path === '/' : path === item.to || path.startsWith(`${item.to}/`);
  return (
    <Link to={item.to} className={`nav-link${active ? ' nav-link-active' : ''}`} aria-current={active ? 'page' : undefined}>
      <span>{item.label}</span>
      {item.badge}
    </Link>
  );
}

function useAppVersion(): string | null {
  const [version, setVersion] = useState<string | null>(null);
  useEffect(() => {
    desktopBridge()?.getVersion().then(setVersion, () => setVersion(null));
  }, []);
  return version;
}

export function Shell() {
  const { path } = useLocation();
  const user = useUser();
  const { logout } = useSession();
  const unread = useUnreadCount();
  const version = useAppVersion();
  const isAdmin = user.role === 'admin';
  const page = renderRoute(path, isAdmin);

  useEffect(() => {
    document.querySelector('main')?.scrollTo({ top: 0 });
  }, [path]);

  const learning: NavItem[] = [
    { to: '/', label: 'Home' },
    { to: '/products', label: 'Products' },
    { to: '/courses', label: 'Courses' },
    { to: '/exams', label: 'Exams' },
    { to: '/records', label: 'My records' },
    { to: '/mistakes', label: 'Mistake book' },
    { to: '/media/upload', label: 'Upload material' },
    { to: '/coach', label: 'AI coach' },
    { to: '/workbench', label: 'Digital worker' },
    {
      to: '/notifications',
      label: 'Notifications',
      badge: unread > 0 && (
        <span className="badge" aria-label={`${unread} unread`}>
          {unread > 99 ? '99+' : unread}
        </span>
      ),
    },
  ];
  const admin: NavItem[] = [
    { to: '/admin/users', label: 'Users' },
    { to: '/admin/records', label: 'Exam records' },
    { to: '/admin/media', label: 'Media review' },
    { to: '/admin/knowledge', label: 'Knowledge review' },
    { to: '/admin/packs', label: 'Knowledge packs' },
    { to: '/admin/config', label: 'System settings' },
  ];

  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Main">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            T
          </span>
          Trainbench
        </div>
        <div className="nav-group">
          {learning.map((item) => (
            <NavLink key={item.to} item={item} path={path} />
          ))}
        </div>
        {isAdmin && (
          <div className="nav-group">
            <div className="nav-heading">Administration</div>
            {admin.map((item) => (
              <NavLink key={item.to} item={item} path={path} />
            ))}
          </div>
        )}
        <div className="sidebar-footer">
          <div className="user-card">
            <div className="avatar" aria-hidden="true">
              {(user.full_name || user.username).slice(0, 1).toUpperCase()}
            </div>
            <div>
              <div className="user-name">{user.full_name || user.username}</div>
              <div className="user-role">{isAdmin ? 'Administrator' : 'Employee'}</div>
            </div>
          </div>
          <button type="button" className="button button-ghost button-block" onClick={logout}>
            Log out
          </button>
          {version && <div className="version">Version {version}</div>}
        </div>
      </nav>
      <main className="content">
        {page ?? (
          <div className="state state-empty">
            <h1>Page not found</h1>
            <p>
              <Link to="/">Go to the home page</Link>
            </p>
          </div>
        )}
      </main>
    </div>
  );
}
