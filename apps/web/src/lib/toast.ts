import type { ToastOptions } from 'react-toastify';

type ToastKind = 'success' | 'error' | 'info' | 'warning';

// react-toastify is loaded after the first paint; it is not needed to show the landing page.
const loadToastify = () => import('react-toastify');

/**
 * A toast is known by its kind and text: the same one asked for again while it is on screen (two
 * callbacks for one event, an effect run twice in StrictMode, a double click) is not shown twice.
 */
function toastIdOf(kind: ToastKind, message: string): string {
  return `${kind}:${message}`;
}

function show(kind: ToastKind, message: string, options?: ToastOptions): void {
  loadToastify()
    .then(({ toast }) => toast[kind](message, { toastId: toastIdOf(kind, message), ...options }))
    .catch((error: unknown) => console.error('Could not show a notification', error));
}

/** The app's one way to show a toast. */
export const notify = {
  success: (message: string, options?: ToastOptions) => show('success', message, options),
  error: (message: string, options?: ToastOptions) => show('error', message, options),
  info: (message: string, options?: ToastOptions) => show('info', message, options),
  warning: (message: string, options?: ToastOptions) => show('warning', message, options),
};
