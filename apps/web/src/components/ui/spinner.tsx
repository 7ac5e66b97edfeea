export function Spinner({ size = 'sm' }: { size?: 'sm' | 'lg' }) {
  return <span className={`spinner spinner-${size}`} aria-hidden="true" />;
}
