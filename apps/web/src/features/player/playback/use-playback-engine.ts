import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import { PLAYER_MESSAGES } from '../player.constants';
import { isNearEnd, withNoCache } from '../player.rules';
import { selectCurrentStream, selectPlaybackContext, selectPlayer } from '../player.selectors';
import { pause, seekApplied, setCurrentTime, setDuration } from '../player.slice';
import { playNext, reconcilePlayer } from '../player.thunks';
import { fetchAlbumStream, fetchSongStream, forgetSongStream } from '../stream.slice';
import { usePlayerDispatch, usePlayerSelector, usePlayerStore } from '../hooks/use-player-store';
import { attachFile, attachStream, detachMedia, type AttachedSource } from './audio-source';
import { createPlayRecorder } from './play-recorder';

/** Longest wait for the current song's audio before deferred work runs anyway (a paused or refused song). */
const DEFERRED_WORK_MAX_WAIT_MS = 1500;

/** Runs `work` once, when the element next starts playing or after DEFERRED_WORK_MAX_WAIT_MS, whichever is first. */
function afterFirstAudio(audio: HTMLAudioElement | null, work: () => void): void {
  if (!audio) {
    work();
    return;
  }
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    audio.removeEventListener('playing', run);
    work();
  };
  const timer = setTimeout(run, DEFERRED_WORK_MAX_WAIT_MS);
  audio.addEventListener('playing', run);
}

export interface PlaybackEngineState {
  /** The source is attached but cannot play yet. */
  sourceLoading: boolean;
  /** The audio element is actually producing sound (not just asked to). */
  audioPlaying: boolean;
}

/**
 * Binds the one <audio> element to the player state (SPEC section 4): fetches the stream address once per song,
 * attaches it through hls.js (or native HLS, or the fallback file), follows play/pause, volume and seeks, reports
 * progress, and advances at the end unless repeat is on (mobile only).
 */
export function usePlaybackEngine(audio: HTMLAudioElement | null, isMobile: boolean): PlaybackEngineState {
  const dispatch = usePlayerDispatch();
  const store = usePlayerStore();
  const player = usePlayerSelector(selectPlayer);
  const stream = usePlayerSelector(selectCurrentStream);
  const context = usePlayerSelector(selectPlaybackContext);
  const library = usePlayerSelector((state) => state.songs?.allSongs);
  const [sourceLoading, setSourceLoading] = useState(false);
  const [audioPlaying, setAudioPlaying] = useState(false);
  const [sourceVersion, setSourceVersion] = useState(0);
  const sourceRef = useRef<AttachedSource | null>(null);
  /** Changes with every attached source (null while none is). */
  const sourceKeyRef = useRef<number | null>(null);
  const sourceCount = useRef(0);
  /** Songs whose HLS stream failed fatally: they play the fallback file from then on. */
  const hlsFailed = useRef(new Set<string>());
  const prefetchedAlbums = useRef(new Set<string>());
  const mobileRef = useRef(isMobile);
  useEffect(() => {
    mobileRef.current = isMobile;
  }, [isMobile]);

  /** Starts the element; a blocked autoplay pauses with the SPEC's message, other failures show their text. */
  const requestPlay = useCallback(() => {
    if (!audio || !audio.paused) return;
    audio.play().catch((error: unknown) => {
      const name = error instanceof DOMException ? error.name : '';
      if (name === 'AbortError') return; // a newer load or pause replaced this play request
      if (name === 'NotAllowedError') {
        toast.warning(PLAYER_MESSAGES.autoplayBlocked, { id: 'autoplay-blocked' });
        dispatch(pause());
        return;
      }
      if (audio.error) return; // the element's error event reports it
      toast.error(error instanceof Error ? error.message : String(error));
      dispatch(pause());
    });
  }, [audio, dispatch]);

  const songId = player.selectedSong?._id ?? null;
  const { isPlaying, volume, pendingSeek, lastSelectedAt, forceRefreshToken } = player;

  // The library or the context changed: clear a stale context, select the first song when none is.
  useEffect(() => {
    dispatch(reconcilePlayer());
  }, [dispatch, library, context, songId]);

  // A stream address is fetched when the selected song has none; in an album, the rest of it comes in one call.
  useEffect(() => {
    const song = store.getState().player.selectedSong;
    if (!song || stream.fetched) return;
    // A song the catalogue already marks locked is asked for only when someone presses play: an auto-selected,
    // paused one would otherwise greet every listener with a refusal. Pressing play gets the server's message.
    if (song.canPlay === false && !store.getState().player.isPlaying) return;
    void dispatch(fetchSongStream({ songId: song._id, song })).then((result) => {
      const { playbackContext } = store.getState().player;
      const albumId = playbackContext.type === 'album' ? playbackContext.id : null;
      if (!fetchSongStream.fulfilled.match(result) || !albumId || prefetchedAlbums.current.has(albumId))
        return;
      prefetchedAlbums.current.add(albumId);
      // The rest of the album is fetched once this song sounds (or after a moment), so that call never competes
      // with the playlist, key and first segment of the song the listener is waiting for.
      afterFirstAudio(audio, () => void dispatch(fetchAlbumStream(albumId)));
    });
  }, [audio, dispatch, store, songId, lastSelectedAt, stream.fetched, isPlaying]);

  // A new song (or a new selection of the same one) clears the old playback and attaches the new source.
  const { url } = stream;
  useEffect(() => {
    if (!audio) return;
    sourceRef.current?.destroy();
    sourceRef.current = null;
    sourceKeyRef.current = null;
    detachMedia(audio);
    setSourceVersion(0);
    if (!songId || !url) {
      setSourceLoading(false);
      return;
    }
    let cancelled = false;
    const startPosition = store.getState().player.currentTime;
    setSourceLoading(true);

    const attached = (source: AttachedSource) => {
      sourceRef.current = source;
      sourceCount.current += 1;
      sourceKeyRef.current = sourceCount.current;
      setSourceVersion((version) => version + 1);
    };
    const playFallback = (position: number) => {
      hlsFailed.current.add(songId);
      const fallback = store.getState().stream.audioUrls[songId];
      // Addresses from the album call carry no fallback: fetch the song's own, which does.
      if (!fallback) {
        dispatch(forgetSongStream(songId));
        return;
      }
      attached(attachFile(audio, fallback, position));
    };

    const run = async () => {
      if (hlsFailed.current.has(songId)) {
        playFallback(startPosition);
        return;
      }
      let source: AttachedSource | null = null;
      try {
        source = await attachStream(audio, {
          url: withNoCache(url, Date.now()),
          startPosition,
          onFatalError: (type) => {
            if (cancelled) return;
            toast.error(PLAYER_MESSAGES.playbackError(type));
            sourceRef.current = null;
            playFallback(audio.currentTime > 0 ? audio.currentTime : startPosition);
          },
        });
      } catch {
        source = null; // hls.js could not be loaded: the fallback file still plays.
      }
      if (cancelled) {
        source?.destroy();
        return;
      }
      if (source) attached(source);
      else playFallback(startPosition);
    };
    void run();
    return () => {
      cancelled = true;
      sourceRef.current?.destroy();
      sourceRef.current = null;
    };
  }, [audio, dispatch, store, songId, url, lastSelectedAt, forceRefreshToken]);

  // Play and pause follow the store.
  useEffect(() => {
    if (!audio || sourceVersion === 0) return;
    if (isPlaying) requestPlay();
    else if (!audio.paused) audio.pause();
  }, [audio, isPlaying, requestPlay, sourceVersion]);

  useEffect(() => {
    if (audio) audio.volume = volume;
  }, [audio, volume]);

  useEffect(() => {
    if (!audio || pendingSeek === null) return;
    if (sourceVersion > 0) audio.currentTime = pendingSeek;
    dispatch(seekApplied());
  }, [audio, dispatch, pendingSeek, sourceVersion]);

  // Media events: progress, duration, readiness, end of song, and plays worth recording.
  useEffect(() => {
    if (!audio) return;
    const recorder = createPlayRecorder();
    const selectionKey = () => {
      const { selectedSong, lastSelectedAt: at } = store.getState().player;
      return selectedSong ? `${selectedSong._id}:${at ?? 'restored'}` : null;
    };
    let advancedFor: number | null = null;
    const repeating = () => store.getState().player.repeat && mobileRef.current;
    /**
     * Next song, once per attached source (an 'ended' from the old source after an early advance is ignored).
     * At the very end with nowhere to go, playback stops.
     */
    const advance = (atEnd: boolean) => {
      const source = sourceKeyRef.current;
      if (source === null || advancedFor === source) return;
      const before = selectionKey();
      recorder.flush();
      dispatch(playNext());
      if (selectionKey() !== before) advancedFor = source;
      else if (atEnd) dispatch(pause());
    };

    const onTimeUpdate = () => {
      if (audio.readyState === 0) return; // the element was just emptied; keep the stored time
      const { selectedSong } = store.getState().player;
      dispatch(setCurrentTime(audio.currentTime));
      if (selectedSong) recorder.progress(selectedSong._id, audio.currentTime, audio.duration, !audio.paused);
      if (!repeating() && isNearEnd(audio.currentTime, audio.duration)) advance(false);
    };
    const onDuration = () => {
      if (Number.isFinite(audio.duration)) dispatch(setDuration(audio.duration));
    };
    const onReady = () => {
      setSourceLoading(false);
      // A play asked for before the media could start (e.g. while hls.js was still attaching).
      if (store.getState().player.isPlaying) requestPlay();
    };
    const onEnded = () => {
      if (repeating()) {
        recorder.flush();
        audio.currentTime = 0;
        void audio.play().catch(() => undefined);
        return;
      }
      advance(true);
    };
    const onPlaying = () => {
      setSourceLoading(false);
      setAudioPlaying(true);
    };
    const onPause = () => setAudioPlaying(false);
    const onEmptied = () => {
      recorder.flush();
      setAudioPlaying(false);
    };
    const onError = () => {
      const source = sourceRef.current;
      // hls.js reports its own errors; this is the native or fallback source failing.
      if (!source || source.kind === 'hls' || !audio.error) return;
      const { selectedSong } = store.getState().player;
      toast.error(PLAYER_MESSAGES.playbackError('mediaError'));
      setSourceLoading(false);
      dispatch(pause());
      // The signed address may have expired: the next play fetches a new one.
      if (selectedSong) dispatch(forgetSongStream(selectedSong._id));
    };
    const onPageHide = () => recorder.flush();

    const events: Array<[string, () => void]> = [
      ['timeupdate', onTimeUpdate],
      ['durationchange', onDuration],
      ['loadedmetadata', onDuration],
      ['loadedmetadata', onReady],
      ['canplay', onReady],
      ['loadeddata', onReady],
      ['ended', onEnded],
      ['playing', onPlaying],
      ['pause', onPause],
      ['emptied', onEmptied],
      ['error', onError],
    ];
    for (const [name, handler] of events) audio.addEventListener(name, handler);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      for (const [name, handler] of events) audio.removeEventListener(name, handler);
      window.removeEventListener('pagehide', onPageHide);
      recorder.flush();
    };
  }, [audio, dispatch, requestPlay, store]);

  return { sourceLoading, audioPlaying };
}
