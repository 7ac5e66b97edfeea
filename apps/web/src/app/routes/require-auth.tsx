import { Navigate, Outlet } from 'react-router';
import { paths } from '../../config/paths';
import { useAuth } from '../../lib/auth-context';

/** Login-required routes send logged-out visitors to Home with the login dialog open. */
export function RequireAuth() {
  const { isLoggedIn } = useAuth();
  if (!isLoggedIn) return <Navigate to={paths.login.getHref()} replace />;
  return <Outlet />;
}
