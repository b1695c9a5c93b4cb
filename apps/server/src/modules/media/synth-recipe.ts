import { pick, seededRandom } from './seeded-random';

/** Musical choices for a generated demo song, all derived from a seed so the same seed gives the same song. */

export type Waveform = 'sine' | 'organ' | 'hollow' | 'saw';

export interface Chord {
  /** Semitones from the key's tonic. */
  rootSemitones: number;
  minor: boolean;
}

export interface SongRecipe {
  bpm: number;
  /** Frequency of the tonic in the pad's octave, Hz. */
  tonicHz: number;
  minorKey: boolean;
  /** One chord per bar; the loop is as many bars as there are chords. */
  chords: Chord[];
  /** Arpeggio note order over the chord tones: 0 root, 1 third, 2 fifth, 3 octave. */
  arpPattern: [number, number, number, number];
  /** Arpeggio note length in beats. */
  arpStepBeats: 0.25 | 0.5;
  arpWaveform: Waveform;
  /** Kick every beat (four on the floor) or on beats 1 and 3. */
  kickEveryBeats: 1 | 2;
  /** Hi-hat every sixteenth, every eighth, or (1) on the off-beats. */
  hatEveryBeats: 0.25 | 0.5 | 1;
}

const M = false;
const m = true;
const MAJOR_PROGRESSIONS: Chord[][] = [
  [
    [0, M],
    [7, M],
    [9, m],
    [5, M],
  ], // I V vi IV
  [
    [0, M],
    [9, m],
    [5, M],
    [7, M],
  ], // I vi IV V
  [
    [9, m],
    [5, M],
    [0, M],
    [7, M],
  ], // vi IV I V
  [
    [0, M],
    [5, M],
    [2, m],
    [7, M],
  ], // I IV ii V
].map((chords) =>
  chords.map(([rootSemitones, minor]) => ({
    rootSemitones: rootSemitones as number,
    minor: minor as boolean,
  })),
);
const MINOR_PROGRESSIONS: Chord[][] = [
  [
    [0, m],
    [8, M],
    [3, M],
    [10, M],
  ], // i VI III VII
  [
    [0, m],
    [5, m],
    [10, M],
    [3, M],
  ], // i iv VII III
  [
    [0, m],
    [10, M],
    [8, M],
    [10, M],
  ], // i VII VI VII
  [
    [0, m],
    [8, M],
    [5, m],
    [7, M],
  ], // i VI iv V (harmonic minor)
].map((chords) =>
  chords.map(([rootSemitones, minor]) => ({
    rootSemitones: rootSemitones as number,
    minor: minor as boolean,
  })),
);
const ARP_PATTERNS: SongRecipe['arpPattern'][] = [
  [0, 1, 2, 3],
  [0, 2, 1, 3],
  [0, 1, 2, 1],
  [3, 2, 1, 2],
];
const WAVEFORMS: Waveform[] = ['sine', 'organ', 'hollow', 'saw'];

export function songRecipe(seed: number): SongRecipe {
  const random = seededRandom(seed);
  const minorKey = random() < 0.5;
  // Tonic between A2 (110 Hz) and G#3: pad voices sit around 110-330 Hz, arpeggio an octave up, bass an octave down.
  const tonicHz = 110 * 2 ** (Math.floor(random() * 12) / 12);
  return {
    bpm: 84 + Math.floor(random() * 45),
    tonicHz,
    minorKey,
    chords: pick(random, minorKey ? MINOR_PROGRESSIONS : MAJOR_PROGRESSIONS),
    arpPattern: pick(random, ARP_PATTERNS),
    arpStepBeats: random() < 0.6 ? 0.25 : 0.5,
    arpWaveform: pick(random, WAVEFORMS),
    kickEveryBeats: random() < 0.6 ? 1 : 2,
    hatEveryBeats: pick(random, [0.25, 0.5, 0.5, 1] as const),
  };
}
