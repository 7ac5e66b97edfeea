import { getInitials } from '../../lib/auth-context';

export function Avatar({ name }: { name: string | null | undefined }) {
  return (
    <span className="avatar" aria-hidden="true">
      {getInitials(name)}
    </span>
  );
}
