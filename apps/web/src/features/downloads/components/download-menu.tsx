import { useEffect, useId, useRef, useState } from 'react';
import { Download } from 'lucide-react';
import type { DownloadFormat, DownloadItemType } from '@backbeat/contract';
import {
  Button,
  IconButton,
  Spinner,
  cx,
  focusMenuItem,
  menuItemClass,
  onMenuKeyDown,
} from '../../../components/ui';
import { errorText } from '../../../lib/api';
import { useGetDownloadOptionsQuery } from '../downloads.api';
import { DOWNLOAD_MESSAGES, FORMAT_LABELS } from '../downloads.constants';
import { useDownload } from '../use-download';

export interface DownloadMenuProps {
  itemType: DownloadItemType;
  id: string;
  /** What is downloaded, for the accessible names ("Download Neon Tides"). */
  title: string;
  /** `header`: a page's labelled button; `row`: a round icon button in a song row. */
  look?: 'header' | 'row';
}

type Options =
  { state: 'loading' } | { state: 'ready'; formats: DownloadFormat[] } | { state: 'failed'; message: string };

/**
 * "Download" with a menu of the formats on offer (MP3 320 kbit/s, and FLAC when the upload was lossless), read
 * from the server when the menu opens. Keyboard as every menu: arrows, Home/End, Escape.
 */
export function DownloadMenu({ itemType, id, title, look = 'header' }: DownloadMenuProps) {
  const [open, setOpen] = useState(false);
  const answer = useGetDownloadOptionsQuery({ itemType, id }, { skip: !open });
  const options: Options = answer.isFetching
    ? { state: 'loading' }
    : answer.isSuccess
      ? { state: 'ready', formats: answer.currentData?.formats ?? ['mp3'] }
      : answer.isError
        ? { state: 'failed', message: errorText(answer.error, DOWNLOAD_MESSAGES.optionsFailed) }
        : { state: 'loading' };
  const wrapper = useRef<HTMLDivElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  const download = useDownload(itemType, id);

  useEffect(() => {
    if (!open) return;
    const closeOutside = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeOutside);
    return () => document.removeEventListener('pointerdown', closeOutside);
  }, [open]);

  useEffect(() => {
    if (open && options.state === 'ready') focusMenuItem(menu.current, () => 0);
  }, [open, options.state]);

  const close = (returnFocus: boolean) => {
    setOpen(false);
    if (returnFocus)
      wrapper.current?.querySelector<HTMLButtonElement>('button[aria-haspopup="menu"]')?.focus();
  };
  const choose = (format: DownloadFormat) => {
    close(true);
    void download.start(format);
  };

  const name = `Download ${title}`;
  const buttonProps = {
    'aria-haspopup': 'menu' as const,
    'aria-expanded': open,
    'aria-controls': open ? menuId : undefined,
    onClick: () => setOpen((value) => !value),
  };
  return (
    <div ref={wrapper} className="relative">
      {look === 'header' ? (
        <Button
          variant="secondary"
          loading={download.busy}
          aria-label={name}
          icon={<Download size={18} strokeWidth={1.75} aria-hidden="true" />}
          {...buttonProps}
        >
          Download
        </Button>
      ) : (
        <IconButton label={name} size="sm" disabled={download.busy} {...buttonProps}>
          {download.busy ? (
            <Spinner size="sm" />
          ) : (
            <Download size={18} strokeWidth={1.75} aria-hidden="true" />
          )}
        </IconButton>
      )}
      {open ? (
        <div
          ref={menu}
          id={menuId}
          role="menu"
          aria-label={name}
          aria-busy={options.state === 'loading' || undefined}
          onKeyDown={(event) => onMenuKeyDown(event, menu.current, close)}
          className={cx(
            'absolute z-40 mt-2 flex w-60 flex-col rounded-card border border-line bg-surface p-1.5 shadow-2xl shadow-black/60',
            look === 'header' ? 'left-0 top-full' : 'right-0 top-full',
          )}
        >
          {options.state === 'loading' ? (
            <p className="flex items-center gap-2 px-3 py-2 text-meta text-muted">
              <Spinner size="sm" /> Loading formats…
            </p>
          ) : options.state === 'failed' ? (
            <p role="alert" className="px-3 py-2 text-meta text-danger">
              {options.message}
            </p>
          ) : (
            options.formats.map((format) => (
              <button
                key={format}
                type="button"
                role="menuitem"
                tabIndex={-1}
                className={menuItemClass}
                onClick={() => choose(format)}
              >
                <Download size={18} strokeWidth={1.75} aria-hidden="true" className="shrink-0 text-accent" />
                <span className="min-w-0 flex-1 font-semibold">{FORMAT_LABELS[format].name}</span>
                <span className="text-meta text-muted">{FORMAT_LABELS[format].detail}</span>
              </button>
            ))
          )}
        </div>
      ) : null}
    </div>
  );
}
