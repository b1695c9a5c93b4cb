import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from '../../../lib/toast';
import { PLAYER_MESSAGES } from '../player.constants';
import { isNearEnd, nextInQueue, playbackQueue } from '../player.rules';
import {
  selectActivePreview,
  selectLibrarySongs,
  selectPlaybackContext,
  selectPlayer,
  type PlayerRootState,
} from '../player.selectors';
import { pause, seekApplied, setCurrentTime, setDuration } from '../player.slice';
import { playNext, reconcilePlayer } from '../player.thunks';
import { fetchSongStream, forgetSongStream } from '../stream.slice';
import { usePlayerDispatch, usePlayerSelector, usePlayerStore } from '../hooks/use-player-store';
import type { Song } from '../../catalog';
import { whenIdle } from '../idle';
import { createPlayRecorder } from './play-recorder';
import { PlaybackController } from './playback-controller';
import {
  afterFirstAudio,
  selectionKeyOf,
  songRequest,
  startPlaybackSync,
  type Handover,
  type PlaybackSync,
} from './playback-sync';

/** What the player should do after the selected song: the next in the queue, or the song itself on repeat. */
function followingSong(state: PlayerRootState, repeating: boolean): Song | null {
  const { selectedSong, playbackContext } = state.player;
  if (!selectedSong) return null;
  if (repeating) return selectedSong;
  return nextInQueue(playbackQueue(playbackContext, selectLibrarySongs(state)), selectedSong);
}

export interface PlaybackEngineState {
  /** The source is attached but cannot play yet. */
  sourceLoading: boolean;
  /** The audio element is actually producing sound (not just asked to). */
  audioPlaying: boolean;
}

/**
 * Binds the one <audio> element to the player state (SPEC section 4): fetches the stream address once per song,
 * plays it through the PlaybackController (gapless where the browser allows, hls.js or native HLS otherwise, the
 * plain file after a stream failure), follows play/pause, volume and seeks, reports progress, prefetches the song
 * after the current one, and advances at the end unless repeat is on (mobile only). Selection, address and
 * play/pause changes reach the audio from a store subscription (playback-sync.ts), before the page re-renders.
 *
 * Auto-advance and gapless playback: the SPEC advances the state 0.5 s before a song ends. That advance is marked
 * as a hand-over, so the gapless player lets the last 0.5 s of the song play out and the next song follows it
 * sample for sample; only the title and the time (held at 0) change early. A listener's own next, previous or
 * click starts the chosen song at once.
 */
export function usePlaybackEngine(audio: HTMLAudioElement | null, isMobile: boolean): PlaybackEngineState {
  const dispatch = usePlayerDispatch();
  const store = usePlayerStore();
  const player = usePlayerSelector(selectPlayer);
  const context = usePlayerSelector(selectPlaybackContext);
  const library = usePlayerSelector(selectLibrarySongs);
  const urls = usePlayerSelector((state) => state.stream.urls);
  const [sourceLoading, setSourceLoading] = useState(false);
  const [audioPlaying, setAudioPlaying] = useState(false);
  /** Unique per selection that has a source (0: none), so effects that follow a new source always run again. */
  const [sourceVersion, setSourceVersion] = useState(0);
  const [soundedFor, setSoundedFor] = useState<string | null>(null);
  const [controller, setController] = useState<PlaybackController | null>(null);
  /** Automatic advances in progress (playback-sync.ts). */
  const handover = useRef<Handover>({ pending: false, key: null, awaitingSource: false });
  const mobileRef = useRef(isMobile);
  useEffect(() => {
    mobileRef.current = isMobile;
  }, [isMobile]);
  const recorder = useRef(createPlayRecorder());

  const selectionKey = useCallback(() => selectionKeyOf(store.getState()), [store]);
  const repeating = useCallback(() => store.getState().player.repeat && mobileRef.current, [store]);

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

  /**
   * Next song, as an automatic hand-over (once: while the next song's address is on its way the ending song's
   * progress goes on); at the very end with nowhere to go, playback stops.
   */
  const advance = useCallback(
    (atEnd: boolean) => {
      if (handover.current.awaitingSource) return;
      const before = selectionKey();
      recorder.current.flush();
      // The playback takes the new selection up inside this dispatch (a store subscription), as a hand-over.
      handover.current.pending = true;
      try {
        dispatch(playNext());
      } finally {
        handover.current.pending = false;
      }
      if (selectionKey() === before && atEnd) dispatch(pause());
    },
    [dispatch, selectionKey],
  );

  // One controller per audio element, kept in step with the store.
  useEffect(() => {
    if (!audio) return;
    let sync: PlaybackSync | null = null;
    const created = new PlaybackController(audio, {
      onDuration: (seconds) => dispatch(setDuration(seconds)),
      onEnded: () => {
        if (repeating()) {
          recorder.current.flush();
          created.seek(0);
          void audio.play().catch(() => undefined);
          return;
        }
        advance(true);
      },
      onJoin: (_from, to) => {
        recorder.current.flush();
        audio.dataset.songOffset = String(created.songOffset);
        // The state moves on only if it has not already (songs of a second or less skip the early advance).
        if (!repeating() && store.getState().player.selectedSong?._id !== to) advance(false);
      },
      onStreamError: (type) => toast.error(PLAYER_MESSAGES.playbackError(type)),
      onFallbackMissing: (songId) => dispatch(forgetSongStream(songId)),
      onSourceFailed: (songId) => {
        toast.error(PLAYER_MESSAGES.playbackError('mediaError'));
        setSourceLoading(false);
        dispatch(pause());
        // The signed address may have expired: the next play fetches a new one.
        dispatch(forgetSongStream(songId));
      },
      onSourceAttached: () => sync?.sourceAttached(),
    });
    setController(created);
    let versions = 0;
    sync = startPlaybackSync({
      store,
      controller: created,
      audio,
      handover: handover.current,
      requestPlay,
      onSelection: (source, hasSource) => {
        setSoundedFor(null);
        // A song without an address loads only while it is wanted (its address is being fetched); a restored,
        // paused song waits for play with the button ready.
        const { selectedSong, isPlaying } = store.getState().player;
        setSourceLoading(source === 'loading' || (source === 'none' && selectedSong !== null && isPlaying));
        versions += 1;
        setSourceVersion(hasSource ? versions : 0);
      },
    });
    // The gapless player's code and MediaSource, ready before the first click but after the first route.
    const cancelWarm = whenIdle(() => created.warm(), 2000);
    return () => {
      cancelWarm();
      sync?.stop();
      created.destroy();
      setController(null);
    };
  }, [audio, dispatch, store, advance, repeating, requestPlay]);

  const songId = player.selectedSong?._id ?? null;
  const { volume, pendingSeek } = player;

  // The library or the context changed: clear a stale context, select the first song when none is.
  useEffect(() => {
    dispatch(reconcilePlayer());
  }, [dispatch, library, context, songId]);

  // Once the current song sounds, the one after it is prefetched (its address, key and first segment).
  useEffect(() => {
    if (!audio || sourceVersion === 0) return;
    return afterFirstAudio(audio, () => setSoundedFor(selectionKey()));
  }, [audio, sourceVersion, selectionKey]);
  useEffect(() => {
    if (!controller?.joinsSongs || soundedFor === null || soundedFor !== selectionKey()) return;
    const state = store.getState();
    // A preview stops at its end with the buy prompt (playNext): nothing is laid on the timeline after it.
    const following = selectActivePreview(state) ? null : followingSong(state, repeating());
    if (!following || following.canPlay === false || following.status !== 'ready') {
      controller.setNext(null);
      return;
    }
    const request = songRequest(state, following);
    if (request) controller.setNext(request);
    // In an album the one album call brings the address (or, refused, leaves the song to its own turn).
    else if (state.player.playbackContext.type !== 'album') {
      void dispatch(fetchSongStream({ songId: following._id, song: following }));
    }
  }, [
    controller,
    dispatch,
    store,
    soundedFor,
    selectionKey,
    repeating,
    urls,
    context,
    library,
    player.repeat,
  ]);

  useEffect(() => {
    if (audio) audio.volume = volume;
  }, [audio, volume]);

  useEffect(() => {
    if (!controller || pendingSeek === null) return;
    if (sourceVersion > 0) controller.seek(pendingSeek);
    dispatch(seekApplied());
  }, [controller, dispatch, pendingSeek, sourceVersion]);

  // Media events: progress, readiness, and plays worth recording.
  useEffect(() => {
    if (!audio || !controller) return;
    const onTimeUpdate = () => {
      if (audio.readyState === 0 || !controller.hasSource) return; // just emptied; keep the stored time
      const time = controller.songTime;
      const duration = controller.songDuration ?? Number.NaN;
      const { selectedSong } = store.getState().player;
      // Where the current song's second 0 is on the element's timeline (tests and tools read song time from it).
      audio.dataset.songOffset = String(controller.songOffset);
      dispatch(setCurrentTime(time));
      // A preview is not a listen: the server counts preview plays itself.
      const previewing = selectActivePreview(store.getState()) !== null;
      if (selectedSong && !previewing)
        recorder.current.progress(selectedSong._id, time, duration, !audio.paused);
      if (!repeating() && isNearEnd(time, duration)) advance(false);
    };
    const onReady = () => {
      setSourceLoading(false);
      // A play asked for before the media could start (e.g. while hls.js was still attaching).
      if (store.getState().player.isPlaying && controller.hasSource) requestPlay();
    };
    const onPlaying = () => {
      setSourceLoading(false);
      setAudioPlaying(true);
    };
    const onPause = () => setAudioPlaying(false);
    const onEmptied = () => {
      recorder.current.flush();
      setAudioPlaying(false);
    };
    const onPageHide = () => recorder.current.flush();

    const events: Array<[string, () => void]> = [
      ['timeupdate', onTimeUpdate],
      ['loadedmetadata', onReady],
      ['canplay', onReady],
      ['loadeddata', onReady],
      ['playing', onPlaying],
      ['pause', onPause],
      ['emptied', onEmptied],
    ];
    for (const [name, handler] of events) audio.addEventListener(name, handler);
    window.addEventListener('pagehide', onPageHide);
    const playRecorder = recorder.current;
    return () => {
      for (const [name, handler] of events) audio.removeEventListener(name, handler);
      window.removeEventListener('pagehide', onPageHide);
      playRecorder.flush();
    };
  }, [audio, controller, dispatch, requestPlay, store, advance, repeating]);

  return { sourceLoading, audioPlaying };
}
