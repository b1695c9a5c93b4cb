import { useEffect, useId, useRef, type ReactNode } from 'react';
import { cx } from './class-names';

/**
 * A modal on the native <dialog>: the browser traps focus inside, Escape closes it (unless `busy`), and focus
 * returns to the control that opened it.
 */
export function Modal({
  open,
  title,
  description,
  icon,
  tone = 'default',
  busy = false,
  onClose,
  children,
}: {
  open: boolean;
  title: string;
  description?: ReactNode;
  icon?: ReactNode;
  /** 'danger' tints the icon for destructive confirmations. */
  tone?: 'default' | 'danger';
  busy?: boolean;
  onClose: () => void;
  children: ReactNode;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    } else if (!open && element.open) {
      if (typeof element.close === 'function') element.close();
      else element.removeAttribute('open');
    }
  }, [open]);

  return (
    <dialog
      ref={dialog}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
      // A dialog is its own place: its clicks never reach the page's handlers around it (e.g. a song row whose
      // buy button opened a checkout would otherwise play the song behind it).
      onClick={(event) => event.stopPropagation()}
      className="m-auto w-[min(30rem,calc(100vw-2rem))] rounded-card border border-line bg-surface p-0 text-text shadow-2xl shadow-black/60 backdrop:bg-black/70"
    >
      {open ? (
        <div className="flex flex-col gap-5 p-6">
          <div className="flex items-start gap-3">
            {icon ? (
              <span
                aria-hidden="true"
                className={cx(
                  'flex size-10 shrink-0 items-center justify-center rounded-pill',
                  tone === 'danger' ? 'bg-danger/15 text-danger' : 'bg-surface-2',
                )}
              >
                {icon}
              </span>
            ) : null}
            <div className="min-w-0">
              <h2 id={titleId} className="text-h4 font-semibold">
                {title}
              </h2>
              {description ? (
                <div id={descriptionId} className="mt-1 text-body text-muted">
                  {description}
                </div>
              ) : null}
            </div>
          </div>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
