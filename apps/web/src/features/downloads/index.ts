/** The downloads feature's public surface: the download menu for bought songs and albums. */
export { DownloadMenu, type DownloadMenuProps } from './components/download-menu';
