import type * as SonnerModule from 'sonner';
import type { toast as sonnerToast, ToasterProps } from 'sonner';

/**
 * sonner's `toast`, with sonner loaded after the first screen: its ~10 KB gzip are on no route's first render (the
 * `<Toaster>` is lazy too, app/app-root.tsx). A toast asked for before sonner arrived is shown as soon as it does,
 * in order (sonner's Toaster also shows toasts created before it mounted). To update a toast later, give it an
 * `id` in its options. Import `toast` from here, never from 'sonner' (lint-enforced).
 */
/**
 * SPEC section 9, in one place: toasts last 4000 ms, at most 3 show, 14 px apart, Alt+T focuses them (sonner's
 * own width, 356 px, is the SPEC's); the app's one `<Toaster>` (app/app-root.tsx) takes these.
 */
export const TOASTER_OPTIONS = {
  duration: 4000,
  visibleToasts: 3,
  gap: 14,
  hotkey: ['altKey', 'KeyT'],
} satisfies Partial<ToasterProps>;

/** SPEC section 9: a stream warning stays 5000 ms on mobile, 2000 ms on desktop. */
export const STREAM_WARNING_DURATION_MS = { mobile: 5000, desktop: 2000 } as const;

type Sonner = typeof SonnerModule;
type Toast = typeof sonnerToast;
type Kind = 'success' | 'error' | 'info' | 'warning' | 'loading';

let sonner: Sonner | null = null;
let loading: Promise<Sonner> | null = null;

/** Loads sonner (once); the lazy Toaster and every toast share the module. */
export function loadSonner(): Promise<Sonner> {
  loading ??= import('sonner').then((module) => (sonner = module));
  return loading;
}

function whenLoaded(run: (toast: Toast) => void) {
  if (sonner) run(sonner.toast);
  else void loadSonner().then((module) => run(module.toast));
}

const shown =
  (kind: Kind) =>
  (...args: Parameters<Toast[Kind]>): void =>
    whenLoaded((toast) => void (toast[kind] as (...same: typeof args) => unknown)(...args));

export const toast = Object.assign(
  (...args: Parameters<Toast>): void => whenLoaded((toast) => void toast(...args)),
  {
    success: shown('success'),
    error: shown('error'),
    info: shown('info'),
    warning: shown('warning'),
    loading: shown('loading'),
    dismiss: (id?: string | number): void => whenLoaded((toast) => void toast.dismiss(id)),
  },
);
