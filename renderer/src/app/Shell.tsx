import { lazy, Suspense, useEffect, useMemo, useState, type ReactNode } from 'react';
import { Outlet, ScrollRestoration, useLocation, useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Avatar, Badge, Button, Flex, Layout, Menu, type MenuProps } from 'antd';
import { BellOutlined, BookOutlined, FormOutlined, LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined, RobotOutlined, SettingOutlined } from '@ant-design/icons';
import { ADMIN_SECTIONS, NAV_GROUPS, mayOpen, navPathOf, screens, type NavGroup } from './screens';
import { useSession, useUser } from './session';
import { ConnectionBanner } from './connection';
import { VersionNotice } from './version';
import { LanguageSwitch } from './LanguageSwitch';
import { desktopBridge } from './desktop';
import { notificationQueries } from '../features/notifications/queries';

const DesktopNotices = lazy(() => import('./desktop-notices'));
const SyncIndicator = lazy(() => import('../features/sync/SyncIndicator'));

type MenuItem = NonNullable<MenuProps['items']>[number];

/** Only the groups have icons: they are what the collapsed sidebar shows (their items open beside it). */
const GROUP_ICONS: Record<NavGroup, typeof BookOutlined> = { learn: BookOutlined, exams: FormOutlined, workbench: RobotOutlined, admin: SettingOutlined };

const COLLAPSED_KEY = 'trainbench.nav-collapsed';
const OPEN_KEY = 'trainbench.nav-open';

/** The sidebar's items for a role, from the nav registry: groups as submenus, admin sections as headings. */
function useMenuItems(): MenuItem[] {
  const { t } = useTranslation();
  const { role } = useUser();
  return useMemo(() => {
    const visible = screens.filter((s) => s.nav && mayOpen(s, role));
    const item = (s: (typeof visible)[number]): MenuItem => ({ key: s.path, label: t(s.nav!.label) });
    return NAV_GROUPS.flatMap((group): MenuItem[] => {
      const inGroup = visible.filter((s) => s.nav!.group === group);
      if (!inGroup.length) return [];
      const children =
        group === 'admin'
          ? ADMIN_SECTIONS.flatMap((section): MenuItem[] => {
              const inSection = inGroup.filter((s) => s.nav!.section === section);
              return inSection.length ? [{ type: 'group', key: `section-${section}`, label: t(`shell.sections.${section}`), children: inSection.map(item) }] : [];
            })
          : inGroup.map(item);
      const Icon = GROUP_ICONS[group];
      return [{ key: `group-${group}`, icon: <Icon aria-hidden />, label: t(`shell.groups.${group}`), children }];
    });
  }, [t, role]);
}

function useStoredState<T>(key: string, initial: T): [T, (value: T) => void] {
  const [value, setValue] = useState<T>(() => {
    try {
      const stored = localStorage.getItem(key);
      return stored === null ? initial : (JSON.parse(stored) as T);
    } catch {
      return initial;
    }
  });
  return [
    value,
    (next: T) => {
      localStorage.setItem(key, JSON.stringify(next));
      setValue(next);
    },
  ];
}

function useAppVersion(): string | null {
  const [version, setVersion] = useState<string | null>(null);
  useEffect(() => {
    desktopBridge()?.getVersion().then(setVersion, () => setVersion(null));
  }, []);
  return version;
}

function NotificationBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const known = useQuery(notificationQueries.unreadCount()).data?.unread;
  const unread = known ?? 0;
  const label = unread > 0 ? t('shell.header.notificationsUnread', { count: unread }) : t('shell.header.notifications');
  return (
    <Badge count={unread} overflowCount={99} size="small">
      <Button type="text" shape="circle" icon={<BellOutlined aria-hidden />} aria-label={label} title={label} data-testid="notifications-bell" data-unread={known} onClick={() => navigate('/notifications')} />
    </Badge>
  );
}

function UserBadge() {
  const { t } = useTranslation();
  const user = useUser();
  const name = user.full_name || user.username;
  return (
    <Flex align="center" gap={8} data-testid="signed-in-user">
      <Avatar size="small" aria-hidden>
        {name.slice(0, 1).toUpperCase()}
      </Avatar>
      <strong>{name}</strong>
      <span className="user-role">{t(`shell.roles.${user.role}`)}</span>
    </Flex>
  );
}

/** The frame of every signed-in page: grouped, collapsible navigation; a header that always shows who is signed in. */
export function Shell({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const { logout } = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const items = useMenuItems();
  const version = useAppVersion();
  const [collapsed, setCollapsed] = useStoredState(COLLAPSED_KEY, false);
  const [openKeys, setOpenKeys] = useStoredState<string[]>(OPEN_KEY, NAV_GROUPS.map((g: NavGroup) => `group-${g}`));
  const selected = navPathOf(pathname);
  const navLabel = screens.find((s) => s.path === selected)?.nav?.label;
  const title = navLabel ? `${t(navLabel)} · ${t('shell.appName')}` : t('shell.appName');
  useEffect(() => {
    document.title = title;
  }, [title]);

  return (
    <Layout className="shell">
      <Layout.Sider className="shell-sider" theme="light" width={224} collapsedWidth={64} collapsed={collapsed} trigger={null}>
        <div className="brand">
          <span className="brand-mark" aria-hidden>
            T
          </span>
          {!collapsed && <span>{t('shell.appName')}</span>}
        </div>
        <nav aria-label={t('shell.nav.label')}>
          <Menu
            mode="inline"
            items={items}
            selectedKeys={selected ? [selected] : []}
            openKeys={collapsed ? undefined : openKeys}
            onOpenChange={(keys) => setOpenKeys(keys)}
            onClick={({ key }) => navigate(key)}
          />
        </nav>
        {version && !collapsed && <div className="version">{t('shell.version', { version })}</div>}
      </Layout.Sider>
      <Layout>
        <Layout.Header className="shell-header">
          <Button
            type="text"
            icon={collapsed ? <MenuUnfoldOutlined aria-hidden /> : <MenuFoldOutlined aria-hidden />}
            aria-label={t(collapsed ? 'shell.header.expandNav' : 'shell.header.collapseNav')}
            aria-expanded={!collapsed}
            onClick={() => setCollapsed(!collapsed)}
          />
          <Flex align="center" gap="middle">
            <Suspense fallback={null}>
              <SyncIndicator />
            </Suspense>
            <LanguageSwitch />
            <NotificationBell />
            <UserBadge />
            <Button icon={<LogoutOutlined aria-hidden />} onClick={logout}>
              {t('shell.header.logout')}
            </Button>
          </Flex>
        </Layout.Header>
        <ConnectionBanner />
        <VersionNotice />
        {desktopBridge() && (
          <Suspense fallback={null}>
            <DesktopNotices />
          </Suspense>
        )}
        <Layout.Content className="shell-content">
          <main>{children ?? <Outlet />}</main>
        </Layout.Content>
      </Layout>
      <ScrollRestoration />
    </Layout>
  );
}
