import { useEffect } from 'react';
import { Download } from 'lucide-react';
import type { DownloadFormat, DownloadItemType } from '@backbeat/contract';
import {
  Button,
  IconButton,
  MenuError,
  MenuItem,
  MenuLoading,
  cx,
  focusMenuItem,
  useMenuPopover,
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
  const popover = useMenuPopover();
  const { open, setOpen, wrapper, menu, close } = popover;
  const answer = useGetDownloadOptionsQuery({ itemType, id }, { skip: !open });
  const options: Options = answer.isFetching
    ? { state: 'loading' }
    : answer.isSuccess
      ? { state: 'ready', formats: answer.currentData?.formats ?? ['mp3'] }
      : answer.isError
        ? { state: 'failed', message: errorText(answer.error, DOWNLOAD_MESSAGES.optionsFailed) }
        : { state: 'loading' };
  const download = useDownload(itemType, id);

  useEffect(() => {
    if (open && options.state === 'ready') focusMenuItem(menu.current, () => 0);
  }, [open, options.state, menu]);

  const choose = (format: DownloadFormat) => {
    close(true);
    void download.start(format);
  };

  const name = `Download ${title}`;
  const buttonProps = { ...popover.buttonProps, onClick: () => setOpen((value) => !value) };
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
        <IconButton label={name} size="sm" loading={download.busy} {...buttonProps}>
          <Download size={18} strokeWidth={1.75} aria-hidden="true" />
        </IconButton>
      )}
      {open ? (
        <div
          {...popover.menuProps}
          aria-label={name}
          aria-busy={options.state === 'loading' || undefined}
          className={cx(
            'absolute z-40 mt-2 flex w-60 flex-col rounded-card border border-line bg-surface p-1.5 shadow-2xl shadow-black/60',
            look === 'header' ? 'left-0 top-full' : 'right-0 top-full',
          )}
        >
          {options.state === 'loading' ? (
            <MenuLoading>Loading formats…</MenuLoading>
          ) : options.state === 'failed' ? (
            <MenuError>{options.message}</MenuError>
          ) : (
            options.formats.map((format) => (
              <MenuItem key={format} onClick={() => choose(format)}>
                <Download size={18} strokeWidth={1.75} aria-hidden="true" className="shrink-0 text-accent" />
                <span className="min-w-0 flex-1 font-semibold">{FORMAT_LABELS[format].name}</span>
                <span className="text-meta text-muted">{FORMAT_LABELS[format].detail}</span>
              </MenuItem>
            ))
          )}
        </div>
      ) : null}
    </div>
  );
}
