import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../../lib/toast';
import type { DownloadFormat, DownloadItemType } from '@backbeat/contract';
import { errorText } from '../../lib/api';
import { isPreparing, useRequestDownloadLinkMutation } from './downloads.api';
import { DOWNLOAD_MESSAGES, PREPARING_MAX_WAIT_MS } from './downloads.constants';

/** Hands a same-origin attachment address to the browser's own downloader (the page stays where it is). */
export function saveFromUrl(url: string, fileName: string): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new DOMException('Aborted', 'AbortError'));
    });
  });

/**
 * Starts a download: asks for a signed link, waits while the server prepares the files (202, "Preparing..."
 * kept on screen as a toast), then lets the browser fetch it. One download at a time per button.
 */
export function useDownload(itemType: DownloadItemType, id: string) {
  const [busy, setBusy] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const [requestDownloadLink] = useRequestDownloadLinkMutation();
  useEffect(() => () => abort.current?.abort(), []);

  const start = useCallback(
    async (format: DownloadFormat) => {
      abort.current?.abort();
      const controller = new AbortController();
      abort.current = controller;
      const toastId = `download-${itemType}-${id}`;
      const deadline = Date.now() + PREPARING_MAX_WAIT_MS;
      setBusy(true);
      try {
        for (;;) {
          const answer = await requestDownloadLink({ itemType, id, format }).unwrap();
          if (controller.signal.aborted) return;
          if (answer && !isPreparing(answer)) {
            saveFromUrl(answer.url, answer.fileName);
            toast.success(DOWNLOAD_MESSAGES.started(answer.fileName), { id: toastId });
            return;
          }
          if (Date.now() > deadline) {
            toast.error(DOWNLOAD_MESSAGES.tookTooLong, { id: toastId });
            return;
          }
          toast.loading(answer?.message ?? 'Preparing your download…', { id: toastId });
          await wait((answer?.retryAfterSec ?? 3) * 1000, controller.signal);
        }
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return;
        toast.error(errorText(error, DOWNLOAD_MESSAGES.failed), { id: toastId });
      } finally {
        if (abort.current === controller) setBusy(false);
      }
    },
    [id, itemType, requestDownloadLink],
  );

  return { busy, start };
}
