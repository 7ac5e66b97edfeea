import { useDialogs } from '../../../lib/dialogs';
import { LoginModal } from './login-modal';
import { RegisterModal } from './register-modal';

/** Renders whichever auth dialog is open; the DNS dialog arrives with the deploy issue. */
export function AuthDialogs() {
  const { open } = useDialogs();
  if (open === 'login') return <LoginModal />;
  if (open === 'register') return <RegisterModal />;
  return null;
}
