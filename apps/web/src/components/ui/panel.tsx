import { createContext, useContext, useId, useState, type ReactNode } from 'react';
import './panel.css';

/**
 * Makes the next Panel inside a section that opens and closes (issue 31: the site page on a
 * phone): its title becomes the button, its description and content show only while open.
 */
export interface PanelDisclosure {
  open: boolean;
  onToggle: () => void;
}

export const PanelDisclosureContext = createContext<PanelDisclosure | null>(null);

interface PanelProps {
  title: string;
  description?: ReactNode;
  tone?: 'default' | 'danger';
  children: ReactNode;
}

/** A titled card section of an account page (profile, settings), labelled by its heading. */
export function Panel({ title, description, tone = 'default', children }: PanelProps) {
  const headingId = useId();
  const bodyId = useId();
  const disclosure = useContext(PanelDisclosureContext);
  const className = tone === 'danger' ? 'panel panel-danger' : 'panel';
  // A section's content is made when it is first opened, then kept (what was typed, the period
  // chosen) while it is closed again.
  const [opened, setOpened] = useState(false);
  if (disclosure?.open && !opened) setOpened(true);

  if (disclosure) {
    const { open, onToggle } = disclosure;
    return (
      <section
        className={`${className} panel-collapsible`}
        data-open={open}
        aria-labelledby={headingId}
      >
        <div className="panel-header">
          <h2 id={headingId} className="panel-title">
            <button
              type="button"
              className="panel-toggle"
              aria-expanded={open}
              aria-controls={bodyId}
              onClick={onToggle}
            >
              {title}
              <span className="panel-chevron" aria-hidden="true" />
            </button>
          </h2>
        </div>
        {/* Panels inside this one are not sections of their own. */}
        <PanelDisclosureContext.Provider value={null}>
          <div id={bodyId} className="panel-body" hidden={!open}>
            {(open || opened) && (
              <>
                {description && <p className="panel-description panel-lead">{description}</p>}
                {children}
              </>
            )}
          </div>
        </PanelDisclosureContext.Provider>
      </section>
    );
  }

  return (
    <section className={className} aria-labelledby={headingId}>
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
