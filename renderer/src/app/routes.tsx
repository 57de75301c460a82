import { lazy, Suspense, type ComponentType } from 'react';
import { createHashRouter, isRouteErrorResponse, RouterProvider, useRouteError, type RouteObject } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button } from 'antd';
import { mayOpen, screens, type Screen } from './screens';
import { useSession, useUser } from './session';
import { Shell } from './Shell';
import { Loading } from '../components/Loading';
import { NotFound, PageMessage } from '../components/NotFound';
import { serverOnline, serverUnreachable } from '../api/connection';
import { readToken } from '../api/session-token';
import { queryClient } from './query-client';

// Hash routing (#/products/3): the page itself is always `/`, so the desktop window needs nothing from the server
// beyond index.html, and relative asset URLs stay valid.

const loadLoginPage = () => import('../features/auth/LoginPage');
const LoginPage = lazy(loadLoginPage);
const ChangePasswordPage = lazy(() => import('../features/auth/ChangePasswordPage'));
/** The login screen's component once its code is here: rendered as is, not through lazy() and Suspense. */
let loadedLoginPage: ComponentType | undefined;

/**
 * Without a saved session the login screen comes first: its code is fetched beside the language's, and main.tsx
 * renders once both are here. Rendered through Suspense instead, the screen would wait for React's 300 ms throttle
 * on revealing a suspended boundary (a third of the time to a usable login screen, bench/first-screen.ts).
 */
export const loginScreenReady: Promise<void> = readToken()
  ? Promise.resolve()
  : loadLoginPage().then(
      (module) => void (loadedLoginPage = module.default),
      () => undefined, // the lazy route below tries again and shows what went wrong
    );

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

/** Signed in: the shell around the page (a stored session shows "loading" while /auth/me checks it). */
function Root() {
  const { user } = useSession();
  return user ? <Shell /> : <Loading />;
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
  const { prefetch } = screen;
  // A loader outside `lazy` runs beside it, so the page's data and its code are fetched at once.
  const loader = prefetch && (() => (readToken() && prefetch(queryClient), null));
  return screen.path === '/' ? { index: true, lazy: lazyPage, loader } : { path: screen.path.slice(1), lazy: lazyPage, loader };
}

const createRouter = () =>
  createHashRouter([
    {
      path: '/',
      Component: Root,
      HydrateFallback: Loading,
      ErrorBoundary: RouteError,
      children: [{ ErrorBoundary: RouteError, children: [...screens.map(route), { path: '*', Component: NotFound }] }],
    },
  ]);
let router: ReturnType<typeof createRouter> | undefined;
/**
 * The router, made on first use: with a stored session at once (the page's code loads beside the language), else
 * at sign-in. Before that there is nothing to route, and making it would load the first page's code, which the
 * router waits for before it shows anything, in front of the login screen.
 */
const appRouter = () => (router ??= createRouter());
if (readToken()) appRouter();

/** The login screen while nobody is signed in, else the routed app (which keeps its place across a sign-out). */
export function SignedInRoutes() {
  const { user } = useSession();
  if (user === null) {
    const Loaded = loadedLoginPage;
    if (Loaded) return <Loaded />;
    return (
      <Suspense fallback={<Loading />}>
        <LoginPage />
      </Suspense>
    );
  }
  if (user?.must_change_password) {
    return (
      <Suspense fallback={<Loading />}>
        <ChangePasswordPage />
      </Suspense>
    );
  }
  return <RouterProvider router={appRouter()} />;
}
