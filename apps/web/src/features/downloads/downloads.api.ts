import type {
  DownloadFormat,
  DownloadItemType,
  DownloadLinkResponse,
  DownloadOptionsResponse,
  DownloadPreparingResponse,
} from '@backbeat/contract';
import { api } from '../../lib/api';

/** GET /downloads/:itemType/:id: the formats on offer (403 when the viewer may not download it). */
export function getDownloadOptions(itemType: DownloadItemType, id: string, signal?: AbortSignal) {
  return api.get<DownloadOptionsResponse>(`/downloads/${itemType}/${encodeURIComponent(id)}`, { signal });
}

/** POST /downloads/:itemType/:id: a signed link (201), or "being prepared" (202). */
export function requestDownloadLink(itemType: DownloadItemType, id: string, format: DownloadFormat) {
  return api.post<DownloadLinkResponse | DownloadPreparingResponse>(
    `/downloads/${itemType}/${encodeURIComponent(id)}`,
    { format },
  );
}

export const isPreparing = (
  answer: DownloadLinkResponse | DownloadPreparingResponse | null,
): answer is DownloadPreparingResponse =>
  answer !== null && 'code' in answer && answer.code === 'DOWNLOAD_PREPARING';
