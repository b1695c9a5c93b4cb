import { useCallback, useEffect, useMemo, useState } from 'react';
import type { Song } from '../../catalog';
import { useIsMobile } from '../hooks/use-is-mobile';
import { useMediaSession } from '../hooks/use-media-session';
import { useNowPlayingTitle } from '../hooks/use-now-playing-title';
import { usePlayerControls } from '../hooks/use-player-controls';
import { usePlayerShortcuts } from '../hooks/use-player-shortcuts';
import { usePlayerDispatch, usePlayerSelector } from '../hooks/use-player-store';
import { useStreamWarning } from '../hooks/use-stream-warning';
import { whenIdle } from '../idle';
import { gaplessSupported } from '../playback/gapless-support';
import { loadHls } from '../playback/hls-loader';
import { usePlaybackEngine } from '../playback/use-playback-engine';
import { selectActivePreview, selectCurrentStream, selectPlayer, selectUpNext } from '../player.selectors';
import { selectSong } from '../player.slice';
import { songClock } from '../player-clock';
import { DesktopPlayer } from './desktop-player';
import { MobilePlayer } from './mobile-player';
import { PlayerViewContext, type PlayerView } from './player-view';
import { PreviewEndPrompt } from './preview-parts';
import { ShortcutsDialog } from './shortcuts-dialog';

/**
 * The persistent player, mounted once in the main layout: it owns the one <audio> element, so playback carries
 * on across route changes. It renders the desktop bar (>= 768 px) or the mobile mini bar, plus an in-flow spacer
 * that keeps page content clear of them.
 */
export function Player() {
  const dispatch = usePlayerDispatch();
  const [audio, setAudio] = useState<HTMLAudioElement | null>(null);
  const [shortcutsOpen, setShortcutsOpen] = useState(false);
  const isMobile = useIsMobile();
  const player = usePlayerSelector(selectPlayer);
  const stream = usePlayerSelector(selectCurrentStream);
  const upNext = usePlayerSelector(selectUpNext);
  const preview = usePlayerSelector(selectActivePreview);
  const engine = usePlaybackEngine(audio, isMobile);
  const controls = usePlayerControls();
  const song = player.selectedSong;

  // Warm hls.js up once the page is idle, so the first play does not wait for it (only where the gapless player
  // cannot play: it needs no hls.js, and warms itself up).
  useEffect(() => {
    if (gaplessSupported()) return;
    return whenIdle(() => void loadHls().catch(() => undefined), 4000);
  }, []);

  const openShortcuts = useCallback(() => setShortcutsOpen(true), []);
  const closeShortcuts = useCallback(() => setShortcutsOpen(false), []);
  const playSong = useCallback((next: Song) => dispatch(selectSong(next)), [dispatch]);

  const soundOn = engine.audioPlaying && player.isPlaying;
  useStreamWarning({
    songId: song?._id ?? null,
    selectedAt: player.lastSelectedAt,
    error: stream.error,
    isMobile,
    wanted: player.isPlaying,
  });
  usePlayerShortcuts({ controls, hasSong: song !== null, openHelp: openShortcuts });
  useNowPlayingTitle(
    song && soundOn ? { title: song.title, singer: song.singer || song.artist?.name } : null,
  );
  // The song's own time: the media may report a timeline's length (gapless) before it reports the song's.
  const clock = songClock({
    currentTime: player.currentTime,
    reportedDuration: player.duration,
    catalogueDuration: preview?.window?.durationSec ?? song?.duration ?? 0,
  });
  useMediaSession({
    song,
    playing: player.isPlaying,
    currentTime: clock.elapsed,
    duration: clock.total,
    controls,
  });

  const view = useMemo<PlayerView | null>(
    () =>
      song
        ? {
            song,
            playing: player.isPlaying,
            currentTime: clock.elapsed,
            duration: clock.total,
            volume: player.volume,
            muted: player.volumeBeforeMute !== null,
            repeat: player.repeat,
            liked: controls.likedIds.includes(song._id),
            busy: !stream.error && (stream.loading || engine.sourceLoading),
            error: stream.error,
            preview: preview ? { window: preview.window, ended: preview.ended } : null,
            offerPreview: !preview && song.canPlay === false && song.status === 'ready',
            upNext,
            playSong,
            openShortcuts,
            controls,
          }
        : null,
    [
      song,
      player,
      clock.elapsed,
      clock.total,
      stream,
      preview,
      engine.sourceLoading,
      upNext,
      playSong,
      openShortcuts,
      controls,
    ],
  );

  return (
    <>
      <audio ref={setAudio} preload="auto" className="hidden" data-testid="player-audio" />
      <p className="sr-only" aria-live="polite">
        {song ? `Now playing ${song.title} by ${song.singer || song.artist?.name}` : ''}
      </p>
      {view ? (
        <PlayerViewContext.Provider value={view}>
          {/* In flow: the page ends above the fixed mini bar (56 px) or desktop bar (88 px). */}
          <div aria-hidden="true" className="h-14 shrink-0 md:h-[88px]" />
          {isMobile ? <MobilePlayer /> : <DesktopPlayer />}
          <PreviewEndPrompt />
        </PlayerViewContext.Provider>
      ) : null}
      <ShortcutsDialog open={shortcutsOpen} onClose={closeShortcuts} />
    </>
  );
}
