/**
 * The shared kernel every module may use: who may play, download and manage what (pure policies), the entitlement
 * reads and writes those policies decide on, and the events that announce a change of entitlements.
 */
export {
  decideSongAccess,
  holdsSong,
  NO_ENTITLEMENTS,
  REMOVED_SONG_MESSAGE,
  songFacts,
  type AccessDecision,
  type DenialReason,
  type Entitlements,
  type SongAccessFacts,
  type SongFactsRow,
  type Viewer,
} from './access-policy';
export { assertCanManageArtist, canManageArtist, CATALOG_EDITOR_ROLES } from './catalog-access';
export {
  decideSongDownload,
  DOWNLOAD_ALBUM_DENIED,
  DOWNLOAD_SONG_DENIED,
  type DownloadDecision,
  type SongDownloadFacts,
} from './download-policy';
export { EntitlementEvents, type EntitlementChange, type EntitlementListener } from './entitlement-events';
export { EntitlementGrants } from './entitlement-grants.repository';
export {
  PLAYING_SUBSCRIPTION_STATUSES,
  purchaseStands,
  subscriptionPlaysAt,
  subscriptionToArtistPlays,
} from './entitlement-rules';
export { loadEntitlements, songEntitlementColumns } from './entitlements.repository';
export { HeldItemsReader, HoldingsRepository, type HeldAlbum } from './holdings.repository';
