interface SectionHeaderProps {
  id: string;
  eyebrow: string;
  title: string;
  subtitle?: string;
}

export function SectionHeader({ id, eyebrow, title, subtitle }: SectionHeaderProps) {
  return (
    <div className="section-header">
      <p className="eyebrow">{eyebrow}</p>
      <h2 id={id} className="section-title">
        {title}
      </h2>
      {subtitle && <p className="section-subtitle">{subtitle}</p>}
    </div>
  );
}
