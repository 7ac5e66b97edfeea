import { useId, type ReactNode } from 'react';
import './panel.css';

interface PanelProps {
  title: string;
  description?: ReactNode;
  tone?: 'default' | 'danger';
  children: ReactNode;
}

/** A titled card section of an account page (profile, settings), labelled by its heading. */
export function Panel({ title, description, tone = 'default', children }: PanelProps) {
  const headingId = useId();
  return (
    <section
      className={tone === 'danger' ? 'panel panel-danger' : 'panel'}
      aria-labelledby={headingId}
    >
      <div className="panel-header">
        <h2 id={headingId} className="panel-title">
          {title}
        </h2>
        {description && <p className="panel-description">{description}</p>}
      </div>
      {children}
    </section>
  );
}
