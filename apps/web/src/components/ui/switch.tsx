import './panel.css';
import { useId, type ReactNode } from 'react';

interface SwitchProps {
  label: string;
  description?: ReactNode;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}

/** An on/off setting: a native checkbox announced as a switch, so keyboard and forms just work. */
export function Switch({ label, description, checked, disabled, onChange }: SwitchProps) {
  const id = useId();
  const descriptionId = `${id}-description`;
  return (
    <div className="switch-row">
      <div className="switch-text">
        <label className="switch-label" htmlFor={id}>
          {label}
        </label>
        {description && (
          <p id={descriptionId} className="switch-description">
            {description}
          </p>
        )}
      </div>
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="switch"
        checked={checked}
        disabled={disabled}
        aria-describedby={description ? descriptionId : undefined}
        onChange={(event) => onChange(event.target.checked)}
      />
    </div>
  );
}
