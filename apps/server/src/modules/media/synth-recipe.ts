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

/** Semitones above the tonic of the scale degrees I to VII, in a major key and in a (natural) minor key. */
const DEGREE_SEMITONES = { major: [0, 2, 4, 5, 7, 9, 11], minor: [0, 2, 3, 5, 7, 8, 10] };
const NUMERALS = ['i', 'ii', 'iii', 'iv', 'v', 'vi', 'vii'];

/** A progression in Roman numerals ("I V vi IV"): upper case is a major chord, lower case a minor one. */
function progression(numerals: string, key: keyof typeof DEGREE_SEMITONES): Chord[] {
  return numerals.split(' ').map((numeral) => ({
    rootSemitones: DEGREE_SEMITONES[key][NUMERALS.indexOf(numeral.toLowerCase())]!,
    minor: numeral === numeral.toLowerCase(),
  }));
}

const MAJOR_PROGRESSIONS = ['I V vi IV', 'I vi IV V', 'vi IV I V', 'I IV ii V'].map((numerals) =>
  progression(numerals, 'major'),
);
// The last one borrows harmonic minor's major V.
const MINOR_PROGRESSIONS = ['i VI III VII', 'i iv VII III', 'i VII VI VII', 'i VI iv V'].map((numerals) =>
  progression(numerals, 'minor'),
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
