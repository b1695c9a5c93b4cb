import { Trash2 } from 'lucide-react';
import { ConfirmDialog } from '../../../components/ui';

/** Asks before a playlist is deleted; Cancel has the focus, so Enter never deletes by accident. */
export function ConfirmDeleteDialog({
  open,
  name,
  busy,
  onConfirm,
  onClose,
}: {
  open: boolean;
  name: string;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      title={`Delete “${name}”?`}
      confirmLabel="Delete playlist"
      icon={<Trash2 size={20} strokeWidth={1.75} className="text-danger" />}
      busy={busy}
      onConfirm={onConfirm}
      onCancel={onClose}
    >
      The playlist is removed for good. The songs stay in the catalogue.
    </ConfirmDialog>
  );
}
