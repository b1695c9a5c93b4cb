import { useRef, type HTMLAttributes } from 'react';
import { useModalFocus } from '../hooks/use-modal-focus';

/**
 * The player's own dialogs (the now-playing view, the shortcuts help): focus moves inside and stays there, Escape
 * closes, focus returns on close. Mount it only while open.
 */
export function PlayerDialog({
  labelledBy,
  onClose,
  ...div
}: {
  /** The id of the dialog's heading. */
  labelledBy: string;
  onClose: () => void;
} & Omit<HTMLAttributes<HTMLDivElement>, 'role' | 'tabIndex'> & { 'data-testid'?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useModalFocus(ref, true, onClose);
  return (
    <div ref={ref} role="dialog" aria-modal="true" aria-labelledby={labelledBy} tabIndex={-1} {...div} />
  );
}
