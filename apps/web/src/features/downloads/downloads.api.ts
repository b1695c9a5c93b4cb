import type {
  DownloadLinkBody,
  DownloadLinkResponse,
  DownloadOptionsResponse,
  DownloadParams,
  DownloadPreparingResponse,
} from '@backbeat/contract';
import { backbeatApi } from '../../lib/api-query';

const downloadPath = ({ itemType, id }: DownloadParams) => `/downloads/${itemType}/${encodeURIComponent(id)}`;

const downloadsApi = backbeatApi.injectEndpoints({
  endpoints: (build) => ({
    /** GET /downloads/:itemType/:id: the formats on offer (403 when the viewer may not download it), asked anew each time the menu opens. */
    getDownloadOptions: build.query<DownloadOptionsResponse | null, DownloadParams>({
      query: downloadPath,
      keepUnusedDataFor: 0,
    }),
    /** POST /downloads/:itemType/:id: a signed link (201), or "being prepared" (202). */
    requestDownloadLink: build.mutation<
      DownloadLinkResponse | DownloadPreparingResponse | null,
      DownloadParams & DownloadLinkBody
    >({
      query: ({ format, ...item }) => ({ url: downloadPath(item), method: 'POST', body: { format } }),
    }),
  }),
});

export const { useGetDownloadOptionsQuery, useRequestDownloadLinkMutation } = downloadsApi;

export const isPreparing = (
  answer: DownloadLinkResponse | DownloadPreparingResponse | null,
): answer is DownloadPreparingResponse =>
  answer !== null && 'code' in answer && answer.code === 'DOWNLOAD_PREPARING';
