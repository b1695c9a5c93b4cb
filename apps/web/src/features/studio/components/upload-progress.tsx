import type { UploadProgress } from '../upload-request';
import { ProgressBar } from './progress-bar';

/** One bar per file being sent, named after the file. */
export function UploadProgressList({
  progress,
  files,
}: {
  progress: UploadProgress | null;
  files: ReadonlyArray<{ field: string; label: string; file: File | null }>;
}) {
  const sending = files.filter((entry) => entry.file);
  if (sending.length === 0) return null;
  return (
    <div
      className="flex flex-col gap-3 rounded-card border border-line bg-surface-2/60 p-4"
      aria-live="polite"
    >
      {sending.map((entry) => (
        <ProgressBar
          key={entry.field}
          label={`Uploading ${entry.label.toLowerCase()}: ${entry.file?.name ?? ''}`}
          value={progress?.files[entry.field] ?? 0}
        />
      ))}
    </div>
  );
}
