import type { Config } from '../config';
import {
  preparationHeadline,
  preparationStepText,
  type CataloguePreparation,
  type PreparationSnapshot,
} from '../platform/catalogue-preparation';
import { elapsed, type StatusLine } from '../platform/status-line';
import { demoAccountCredentials, logPublishedDemoAccounts, type SeedLog } from './demo-accounts';

const describe = (snapshot: PreparationSnapshot, since: number) => {
  const step = preparationStepText(snapshot);
  return `${preparationHeadline(snapshot)}${step ? ` · ${step}` : ''} · ${elapsed(since)}`;
};

/**
 * The first start's progress on the console. On a terminal: one line that updates in place, "Preparing the demo
 * catalogue: 12 of 40 songs · transcoding to encrypted HLS · 0:42". Elsewhere (a log file, a pipe, production's
 * JSON): a few log lines, one when the seed starts a step and one when half the songs play. Returns the function
 * that stops reporting.
 */
export function reportPreparation(
  preparation: CataloguePreparation,
  output: { status: StatusLine; log: SeedLog },
): () => void {
  if (preparation.isReady) return () => undefined;
  const since = Date.now();
  if (output.status.interactive) {
    const line = output.status.follow(() => describe(preparation.snapshot(), since));
    const unsubscribe = preparation.subscribe(line.draw);
    return () => {
      unsubscribe();
      line.stop();
    };
  }
  let lastStep: PreparationSnapshot['step'] = null;
  let halfwayTold = false;
  return preparation.subscribe((snapshot) => {
    if (!snapshot.step) return;
    const newStep = snapshot.step !== lastStep;
    const halfway =
      snapshot.step === 'transcoding' &&
      !halfwayTold &&
      snapshot.songsReady > 0 &&
      snapshot.songsReady * 2 >= snapshot.songsTotal;
    if (!newStep && !halfway) return;
    lastStep = snapshot.step;
    if (halfway) halfwayTold = true;
    output.log.info(describe(snapshot, since));
  });
}

/**
 * While a first start prepares the catalogue, the accounts to try it with. Only the published README passwords:
 * generated ones (production) go to an owner-only file when the seed creates them, never to the log.
 */
export function announceDemoAccounts(config: Pick<Config, 'isProduction'>, log: SeedLog): void {
  const credentials = demoAccountCredentials(config);
  logPublishedDemoAccounts(credentials, log);
}
