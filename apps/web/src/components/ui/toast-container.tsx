import { ToastContainer } from 'react-toastify';
import 'react-toastify/dist/ReactToastify.css';
import { TOAST_TIMEOUT_MS } from '@mirror/contract';

/** SPEC §9: top-right (top-left in right-to-left), 5 s, pause on hover and focus loss. */
export function AppToastContainer({ rtl }: { rtl: boolean }) {
  return (
    <ToastContainer
      position={rtl ? 'top-left' : 'top-right'}
      autoClose={TOAST_TIMEOUT_MS}
      pauseOnHover
      pauseOnFocusLoss
      draggable
      closeOnClick
      rtl={rtl}
    />
  );
}
