import type { Page } from 'playwright-core';

/** Waits until the player's audio element is playing and has played past `seconds` of its timeline. */
export async function waitForPlayback(page: Page, seconds = 1, timeout = 30_000): Promise<void> {
  await page.waitForFunction(
    (min) => {
      const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
      return audio !== null && !audio.paused && audio.currentTime > min;
    },
    seconds,
    { timeout, polling: 100 },
  );
}
