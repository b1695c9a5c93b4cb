import { S3Client } from '@aws-sdk/client-s3';
import type { MediaStoreConfig } from '../config';
import { LocalMediaStore, type MediaStore } from './media-store';
import { S3MediaStore } from './s3-media-store';

export {
  checkedMediaKey,
  LocalMediaStore,
  MEDIA_STORE_UNAVAILABLE,
  MediaStoreUnavailable,
  readMedia,
  type MediaEntry,
  type MediaFile,
  type MediaFileInfo,
  type MediaStore,
} from './media-store';
export { etagComputable, normalEtag, S3EtagHash, s3EtagOf } from './s3-etag';
export { S3MediaStore, type S3MediaStoreOptions } from './s3-media-store';
export * from './scratch-space';

/**
 * The configured media store. `isPublic` names the keys a CDN may serve (encrypted segments): on object storage
 * they go under the public prefix; on local disk nothing changes (nginx serves segments by name, see docs/deploy.md).
 */
export function createMediaStore(config: MediaStoreConfig, isPublic: (key: string) => boolean): MediaStore {
  if (config.kind === 'local') return new LocalMediaStore(config.dir);
  return new S3MediaStore({
    bucket: config.bucket,
    // Credentials from the SDK's default provider chain (environment, shared files, instance or task roles).
    client: new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
    }),
    isPublic,
    publicPrefix: config.publicPrefix,
  });
}

/** Where media lives, for the start-up log line: the folder, or `s3://bucket` and the endpoint. */
export function describeMediaStore(config: MediaStoreConfig): string {
  if (config.kind === 'local') return config.dir;
  return `s3://${config.bucket}${config.endpoint ? ` at ${config.endpoint}` : ''} (public prefix ${config.publicPrefix}/)`;
}
