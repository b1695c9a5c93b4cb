/**
 * What the first start is doing before the catalogue may be served: the demo seed's progress. The server listens at
 * once; while this says `preparing`, browsers get the preparing page and API calls a 503 (modules/system), and
 * `/api/health` carries the figures. Later starts (and SEED_DEMO=false) are `ready` from the beginning.
 */

/** The demo seed's steps, in order. */
export type PreparationStep = 'artwork' | 'audio' | 'transcoding' | 'previews' | 'sales';

export interface PreparationSnapshot {
  state: 'preparing' | 'ready';
  /** What the seed is doing now; null once ready. */
  step: PreparationStep | null;
  /** Demo songs that play (transcoded to encrypted HLS). */
  songsReady: number;
  /** Demo songs the seed makes (0 when no seed runs). */
  songsTotal: number;
  /** Songs whose audio is synthesised (the `audio` step). */
  songsSynthesised: number;
}

type Listener = (snapshot: PreparationSnapshot) => void;

export class CataloguePreparation {
  private current: PreparationSnapshot;
  private readonly listeners = new Set<Listener>();

  private constructor(state: PreparationSnapshot['state']) {
    this.current = { state, step: null, songsReady: 0, songsTotal: 0, songsSynthesised: 0 };
  }

  /** A first start that seeds the demo catalogue. */
  static preparing(): CataloguePreparation {
    return new CataloguePreparation('preparing');
  }

  /** Nothing to prepare: a later start, or no demo seed. */
  static ready(): CataloguePreparation {
    return new CataloguePreparation('ready');
  }

  get isReady(): boolean {
    return this.current.state === 'ready';
  }

  snapshot(): PreparationSnapshot {
    return this.current;
  }

  /** The seed reports a step or a count; listeners (the console line) hear every change. */
  update(change: Partial<Omit<PreparationSnapshot, 'state'>>): void {
    if (this.isReady) return;
    this.current = { ...this.current, ...change };
    this.emit();
  }

  markReady(): void {
    if (this.isReady) return;
    this.current = { ...this.current, state: 'ready', step: null };
    this.emit();
  }

  /** Calls `listener` on every change; returns the unsubscribe function. */
  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit() {
    for (const listener of this.listeners) listener(this.current);
  }
}

const STEP_TEXT: Record<PreparationStep, (s: PreparationSnapshot) => string> = {
  artwork: () => 'drawing cover art',
  audio: (s) => `synthesising audio (${s.songsSynthesised} of ${s.songsTotal})`,
  transcoding: () => 'transcoding to encrypted HLS',
  previews: () => 'cutting 30-second previews',
  sales: () => 'writing four months of demo sales',
};

/** "Preparing the demo catalogue: 12 of 40 songs", the line the page, the console and the 503s share. */
export function preparationHeadline(snapshot: PreparationSnapshot): string {
  if (snapshot.songsTotal === 0) return 'Preparing the demo catalogue';
  return `Preparing the demo catalogue: ${snapshot.songsReady} of ${snapshot.songsTotal} songs`;
}

/** What the seed is doing now, e.g. "transcoding to encrypted HLS"; empty once ready. */
export function preparationStepText(snapshot: PreparationSnapshot): string {
  return snapshot.step ? STEP_TEXT[snapshot.step](snapshot) : '';
}
