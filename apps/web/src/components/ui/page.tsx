import type { ReactNode } from 'react';
import { useDocumentMeta, type DocumentMeta } from '../../lib/document-meta';

interface PageProps {
  meta: DocumentMeta;
  title: string;
  lead?: string;
  className?: string;
  children?: ReactNode;
}

/** A simple content page: meta tags, one h1, optional lead. */
export function Page({ meta, title, lead, className, children }: PageProps) {
  useDocumentMeta(meta);
  return (
    <div className={['page container', className].filter(Boolean).join(' ')}>
      <h1 className="page-title">{title}</h1>
      {lead && <p className="page-lead">{lead}</p>}
      {children}
    </div>
  );
}
