import type { ReactNode } from 'react';

/** The heading block at the top of a screen. */
export function PageHeader({
  title,
  eyebrow,
  description,
  actions,
}: {
  title: ReactNode;
  eyebrow?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <header className="mb-6 flex flex-col gap-4 md:mb-8 md:flex-row md:items-end md:justify-between">
      <div className="min-w-0">
        {eyebrow ? (
          <p className="mb-1 text-meta font-semibold uppercase tracking-wider text-accent">{eyebrow}</p>
        ) : null}
        <h1 className="text-h2 font-bold tracking-tight text-balance md:text-h1">{title}</h1>
        {description ? <div className="mt-2 max-w-2xl text-body text-muted">{description}</div> : null}
      </div>
      {actions ? <div className="flex shrink-0 flex-wrap gap-2">{actions}</div> : null}
    </header>
  );
}

/** A titled section inside a screen. */
export function Section({
  title,
  action,
  children,
  headingId,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
  headingId?: string;
}) {
  return (
    <section className="mb-10" aria-labelledby={headingId}>
      <div className="mb-4 flex items-center justify-between gap-4">
        <h2 id={headingId} className="text-h3 font-semibold tracking-tight">
          {title}
        </h2>
        {action}
      </div>
      {children}
    </section>
  );
}
