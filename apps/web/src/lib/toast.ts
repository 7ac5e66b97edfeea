import type { ToastOptions } from 'react-toastify';

type ToastKind = 'success' | 'error' | 'info' | 'warning';

// react-toastify is loaded after the first paint; it is not needed to show the landing page.
const loadToastify = () => import('react-toastify');

function show(kind: ToastKind, message: string, options?: ToastOptions): void {
  loadToastify()
    .then(({ toast }) => toast[kind](message, options))
    .catch((error: unknown) => console.error('Could not show a notification', error));
}

/** The app's one way to show a toast. */
export const notify = {
  success: (message: string, options?: ToastOptions) => show('success', message, options),
  error: (message: string, options?: ToastOptions) => show('error', message, options),
  info: (message: string, options?: ToastOptions) => show('info', message, options),
  warning: (message: string, options?: ToastOptions) => show('warning', message, options),
};
