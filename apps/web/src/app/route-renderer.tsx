import {
  Component,
  lazy,
  Suspense,
  useEffect,
  useLayoutEffect,
  useRef,
  useSyncExternalStore,
  type ComponentType,
  type ReactNode,
} from 'react';
import {
  BrowserRouter,
  matchRoutes,
  useLocation,
  useNavigate,
  useNavigationType,
  useRoutes,
  type NavigateOptions,
  type RouteObject,
} from 'react-router';

/**
 * Renders the route table (router.tsx: paths, guards, layouts, `lazy` screen modules, `errorElement`,
 * `hydrateFallbackElement`) with React Router's declarative routes instead of its data router. The app loads no
 * data through the router (RTK Query does), and the data router (loaders, actions, fetchers, revalidation,
 * middleware) was 16 KB gzip of every first route's 150 KB budget (the entry went from 144.5 to 128.2 KB,
 * `bench:bundle`); this file gives the table what it used from it:
 * - each screen module loads on demand, and every module of the matched branch (layout and page) starts loading
 *   at once, as the data router did, never one after the other;
 * - navigation keeps the current screen until the next one's code is there (BrowserRouter navigates in a React
 *   transition), and `usePendingScreens()` says when code is loading (the progress bar);
 * - scroll goes to the top on a new navigation and back to where it was on back/forward (`ScrollOnNavigate`);
 * - `errorElement` shows when a screen fails to load or render, until the next navigation;
 * - `navigateOutsideReact` navigates from outside components (the session-expiry handler).
 */

type ScreenModule = { Component: ComponentType };
type ScreenLoader = () => Promise<ScreenModule>;

const loaderOf = (route: RouteObject) => route.lazy as unknown as ScreenLoader | undefined;

/** Screen modules loading now, and who wants to know. */
const loadingScreens = { count: 0, listeners: new Set<() => void>() };
const screenModules = new Map<ScreenLoader, Promise<ScreenModule>>();

/** Told after the render that started a load (RouteTable starts them while it renders), never during it. */
function changed() {
  queueMicrotask(() => {
    for (const listener of loadingScreens.listeners) listener();
  });
}

/** Starts loading a screen module, once; a failed load is tried again when next asked for. */
function loadScreen(loader: ScreenLoader): Promise<ScreenModule> {
  const known = screenModules.get(loader);
  if (known) return known;
  loadingScreens.count++;
  changed();
  const loaded = loader().finally(() => {
    loadingScreens.count--;
    changed();
  });
  screenModules.set(loader, loaded);
  loaded.catch(() => screenModules.delete(loader));
  return loaded;
}

/** True while the code of a screen being navigated to is loading. */
export function usePendingScreens(): boolean {
  return useSyncExternalStore(
    (listener) => {
      loadingScreens.listeners.add(listener);
      return () => loadingScreens.listeners.delete(listener);
    },
    () => loadingScreens.count > 0,
  );
}

interface BoundaryProps {
  fallback: ReactNode;
  /** A new value (the next navigation) clears a shown error. */
  resetKey: string;
  children?: ReactNode;
}

interface BoundaryState {
  failed: boolean;
  /** The navigation the state belongs to. */
  key: string;
}

class ScreenErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { failed: false, key: this.props.resetKey };

  static getDerivedStateFromError(): Partial<BoundaryState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey === state.key ? null : { failed: false, key: props.resetKey };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

function RouteErrorBoundary({ fallback, children }: { fallback: ReactNode; children?: ReactNode }) {
  const { key } = useLocation();
  return (
    <ScreenErrorBoundary fallback={fallback} resetKey={key}>
      {children}
    </ScreenErrorBoundary>
  );
}

/** The table with `lazy` screens as lazy components and `errorElement` as a boundary; made once per table. */
const rendered = new WeakMap<RouteObject[], RouteObject[]>();

function toElements(routes: RouteObject[]): RouteObject[] {
  const known = rendered.get(routes);
  if (known) return known;
  const result = routes.map((route): RouteObject => {
    const { lazy: _lazy, errorElement, hydrateFallbackElement: _fallback, children, ...rest } = route;
    const loader = loaderOf(route);
    let element = route.element;
    if (loader) {
      const Screen = lazy(async () => ({ default: (await loadScreen(loader)).Component }));
      element = <Screen />;
    }
    if (errorElement) element = <RouteErrorBoundary fallback={errorElement}>{element}</RouteErrorBoundary>;
    return { ...rest, element, ...(children ? { children: toElements(children) } : {}) } as RouteObject;
  });
  rendered.set(routes, result);
  return result;
}

/** The route table inside any router (the app's BrowserRouter, a test's MemoryRouter). */
export function RouteTable({ routes }: { routes: RouteObject[] }) {
  const location = useLocation();
  // Every screen module of the matched branch starts loading now, together.
  for (const match of matchRoutes(routes, location) ?? []) {
    const loader = loaderOf(match.route);
    if (loader) void loadScreen(loader).catch(() => undefined);
  }
  return useRoutes(toElements(routes), location);
}

type Navigation = [to: string, options?: NavigateOptions];

let navigator: ((...navigation: Navigation) => void) | null = null;
/** A navigation asked for before the router was up: made as soon as it is. */
let pending: Navigation | null = null;

function NavigationBridge() {
  const navigate = useNavigate();
  useEffect(() => {
    navigator = (to, options) => void navigate(to, options);
    if (pending) {
      const [to, options] = pending;
      pending = null;
      navigator(to, options);
    }
    return () => {
      navigator = null;
    };
  }, [navigate]);
  return null;
}

/** Navigates from outside React (the session-expiry handler), as the data router's `router.navigate` did. */
export function navigateOutsideReact(to: string, options?: NavigateOptions): void {
  if (navigator) navigator(to, options);
  else pending = [to, options];
}

const SCROLL_KEY = 'backbeat:scroll';

/** Scroll positions by history entry, kept across reloads in session storage (as the data router did). */
function savedPositions(): Map<string, number> {
  try {
    return new Map(
      Object.entries(JSON.parse(sessionStorage.getItem(SCROLL_KEY) ?? '{}') as Record<string, number>),
    );
  } catch {
    return new Map();
  }
}

/** New navigations start at the top (or at the `#hash`); back and forward return to where the page was. */
export function ScrollOnNavigate() {
  const { key, hash } = useLocation();
  const action = useNavigationType();
  const positions = useRef<Map<string, number> | null>(null);
  const currentKey = useRef(key);

  useEffect(() => {
    positions.current ??= savedPositions();
    if ('scrollRestoration' in window.history) window.history.scrollRestoration = 'manual';
    const save = () => positions.current?.set(currentKey.current, window.scrollY);
    const persist = () => {
      try {
        sessionStorage.setItem(SCROLL_KEY, JSON.stringify(Object.fromEntries(positions.current ?? [])));
      } catch {
        // Storage full or refused: positions are kept for this page's life only.
      }
    };
    window.addEventListener('scroll', save, { passive: true });
    window.addEventListener('pagehide', persist);
    return () => {
      window.removeEventListener('scroll', save);
      window.removeEventListener('pagehide', persist);
    };
  }, []);

  useLayoutEffect(() => {
    positions.current ??= savedPositions();
    currentKey.current = key;
    if (action === 'POP') {
      window.scrollTo(0, positions.current.get(key) ?? 0);
      return;
    }
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [key, hash, action]);

  return null;
}

/** The app's router: the browser's address, the table, and the table's start-up fallback while its first screen loads. */
export function AppRouter({ routes }: { routes: RouteObject[] }) {
  return (
    <BrowserRouter>
      <NavigationBridge />
      <Suspense fallback={routes[0]?.hydrateFallbackElement ?? null}>
        <RouteTable routes={routes} />
      </Suspense>
    </BrowserRouter>
  );
}
