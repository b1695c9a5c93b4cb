import type { ReactNode } from 'react';
import { BackLink, PageHeader } from '../../components/ui';

/**
 * The frame of a Studio editor page (artist, album, song): the document title, the link back to the Studio,
 * the "Studio" header with the page's own description and actions, and the form area below.
 */
export function StudioEditorFrame({
  title,
  backTo,
  description,
  actions,
  children,
}: {
  title: string;
  backTo: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <>
      <title>{`${title} · Studio · Backbeat`}</title>
      <BackLink to={backTo} className="mb-4 -ml-2">
        Studio
      </BackLink>
      <PageHeader eyebrow="Studio" title={title} description={description} actions={actions} />
      <div className="max-w-4xl">{children}</div>
    </>
  );
}
