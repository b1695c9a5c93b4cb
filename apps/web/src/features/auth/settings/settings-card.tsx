import type { ReactNode } from 'react';

/** One settings section: a titled card with its own form and its own outcome. */
export function SettingsCard({
  id,
  title,
  description,
  children,
  tone = 'default',
}: {
  id: string;
  title: string;
  description?: ReactNode;
  children: ReactNode;
  tone?: 'default' | 'danger';
}) {
  return (
    <section
      aria-labelledby={id}
      className={
        tone === 'danger'
          ? 'rounded-card border border-danger/40 bg-danger/5 p-5 md:p-6'
          : 'rounded-card border border-line bg-surface p-5 md:p-6'
      }
    >
      <h2 id={id} className="text-h4 font-semibold">
        {title}
      </h2>
      {description ? <p className="mt-1 text-body text-muted">{description}</p> : null}
      <div className="mt-5">{children}</div>
    </section>
  );
}
