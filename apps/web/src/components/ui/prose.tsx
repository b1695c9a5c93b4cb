import type { ReactNode } from 'react';
import { cx } from './class-names';

/** Long-form text (policies, help): readable measure, spaced headings, muted body. */
export function Prose({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div
      className={cx(
        'max-w-3xl text-h4 leading-7 text-muted',
        '[&_h2]:mt-12 [&_h2]:scroll-mt-24 [&_h2]:text-h3 [&_h2]:font-semibold [&_h2]:text-text',
        '[&_h3]:mt-8 [&_h3]:text-h4 [&_h3]:font-semibold [&_h3]:text-text',
        '[&_p]:mt-4 [&_ul]:mt-4 [&_ul]:list-disc [&_ul]:space-y-2 [&_ul]:pl-6 [&_ol]:mt-4 [&_ol]:list-decimal [&_ol]:space-y-2 [&_ol]:pl-6',
        '[&_a]:font-medium [&_a]:text-text [&_a]:underline [&_a]:underline-offset-4 [&_strong]:font-semibold [&_strong]:text-text',
        className,
      )}
    >
      {children}
    </div>
  );
}
