import { lazy, Suspense, type ComponentType } from 'react';
import { createHashRouter, isRouteErrorResponse, useRouteError, type RouteObject } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { mayOpen, screens, type Screen } from './screens';
import { useSession, useUser } from './session';
import { Shell } from './Shell';
import { Loading } from '../components/Loading';
import { NotFound, PageMessage } from '../components/NotFound';
import { serverOnline, serverUnreachable } from '../api/connection';

// Hash routing (#/products/3): the page itself is always `/`, so the desktop window needs nothing from the server
// beyond index.html, and relative asset URLs stay valid.

const LoginPage = lazy(() => import('../features/auth/LoginPage'));

/** A page that failed to load (its code could not be fetched while the server restarted) or threw. */
function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  return (
    <PageMessage
      title={t('shell.pageError.title')}
      text={t('shell.pageError.text')}
      action={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('shell.pageError.reload')}
        </Button>
      }
    />
  );
}

/** Signed in: the shell around the page; else the login screen (the page's code loads meanwhile). */
function Root() {
  const { user } = useSession();
  if (user === undefined) return <Loading />;
  if (user === null)
    return (
      <Suspense fallback={<Loading />}>
        <LoginPage />
      </Suspense>
    );
  return <Shell />;
}

function gated(Page: ComponentType, screen: Screen): ComponentType {
  if (!screen.roles) return Page;
  return function RoleGate() {
    const user = useUser();
    return mayOpen(screen, user.role) ? <Page /> : <NotFound />;
  };
}

/**
 * A page's code; when it cannot be fetched (the server is restarting) the navigation waits, with the
 * "reconnecting" banner showing, and fetches it again once the server answers.
 */
async function loadPage(screen: Screen): ReturnType<Screen['page']> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await screen.page();
    } catch (err) {
      if (attempt === 3) throw err;
      serverUnreachable();
      await serverOnline();
    }
  }
}

function route(screen: Screen): RouteObject {
  const lazyPage = async () => ({ Component: gated((await loadPage(screen)).default, screen) });
  return screen.path === '/' ? { index: true, lazy: lazyPage } : { path: screen.path.slice(1), lazy: lazyPage };
}

export const router = createHashRouter([
  {
    path: '/',
    Component: Root,
    HydrateFallback: Loading,
    ErrorBoundary: RouteError,
    children: [{ ErrorBoundary: RouteError, children: [...screens.map(route), { path: '*', Component: NotFound }] }],
  },
]);
