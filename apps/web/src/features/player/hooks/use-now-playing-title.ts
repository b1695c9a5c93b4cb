import { useEffect } from 'react';

/**
 * While a song plays, the tab title reads '{title} · {singer}'; the page's own title comes back on pause.
 * Pages set their titles with React's <title>, so a title change made while playing is remembered and replaced.
 */
export function useNowPlayingTitle(nowPlaying: { title: string; singer: string } | null): void {
  const wanted = nowPlaying ? `${nowPlaying.title} · ${nowPlaying.singer}` : null;
  useEffect(() => {
    if (!wanted) return;
    let pageTitle = document.title;
    const apply = () => {
      if (document.title === wanted) return;
      pageTitle = document.title;
      document.title = wanted;
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => {
      observer.disconnect();
      document.title = pageTitle;
    };
  }, [wanted]);
}
