import { X } from 'lucide-react';
import { IconButton } from '../../../components/ui';
import { PlayerDialog } from './player-dialog';
import { PLAYER_SHORTCUTS } from '../hooks/use-player-shortcuts';

/** The help overlay listing the player's keyboard shortcuts ('?' opens it). */
export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  if (!open) return null;
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/60 p-4" onClick={onClose}>
      <PlayerDialog
        labelledBy="player-shortcuts-title"
        onClose={onClose}
        onClick={(event) => event.stopPropagation()}
        className="w-full max-w-sm rounded-card border border-line bg-surface p-6 shadow-2xl shadow-black/60"
      >
        <div className="mb-4 flex items-center justify-between gap-4">
          <h2 id="player-shortcuts-title" className="text-h4 font-semibold text-text">
            Keyboard shortcuts
          </h2>
          <IconButton label="Close keyboard shortcuts" size="sm" onClick={onClose}>
            <X size={18} strokeWidth={1.75} aria-hidden="true" />
          </IconButton>
        </div>
        <dl className="flex flex-col gap-2">
          {PLAYER_SHORTCUTS.map(({ keys, action }) => (
            <div key={action} className="flex items-center justify-between gap-4">
              <dt className="text-body text-muted">{action}</dt>
              <dd className="flex gap-1">
                {keys.map((key) => (
                  <kbd
                    key={key}
                    className="min-w-7 rounded-control border border-line bg-surface-2 px-1.5 py-0.5 text-center font-sans text-meta text-text"
                  >
                    {key}
                  </kbd>
                ))}
              </dd>
            </div>
          ))}
        </dl>
        <p className="mt-4 text-meta text-muted">Shortcuts pause while you type in a field.</p>
      </PlayerDialog>
    </div>
  );
}
