import { Trash2 } from 'lucide-react';
import { Button, Modal } from '../../../components/ui';

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
    <Modal
      open={open}
      busy={busy}
      title={`Delete “${name}”?`}
      description="The playlist is removed for good. The songs stay in the catalogue."
      icon={<Trash2 size={20} strokeWidth={1.75} className="text-danger" />}
      onClose={onClose}
    >
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={busy} autoFocus>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm} loading={busy}>
          Delete playlist
        </Button>
      </div>
    </Modal>
  );
}
