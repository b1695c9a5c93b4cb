import type { SongRecipe, Waveform } from './synth-recipe';

/**
 * Builds the aevalsrc expressions for ONE loop of a song. aevalsrc interprets an expression once per sample, so
 * the cost is operations x samples: shared values are computed once per sample into ffmpeg's variables (st/ld),
 * only one loop is synthesized (ffmpeg repeats it with `aloop`), and the tonal voices, whose partials all stay
 * below 4 kHz, are computed at a quarter of the output rate. Only the hi-hat needs the full rate, and only one
 * hit of it is computed.
 *
 * Tonal variables: 0 chord root Hz, 1 chord third ratio, 2 time in bar, 3 time in arpeggio note, 4 arpeggio note
 * index then phase, 5 time in beat, 6 time since kick, 7 pad phase.
 */

const FIFTH = 2 ** (7 / 12);
const MINOR_THIRD = 2 ** (3 / 12);
const MAJOR_THIRD = 2 ** (4 / 12);

// Peak levels per voice; their sum stays below 0.9 so the mix can never clip, whatever the phases.
const PAD_LEVEL = 0.055; // per chord tone, three tones
const ARP_LEVEL = 0.17;
const BASS_LEVEL = 0.2;
const KICK_LEVEL = 0.3;
const HAT_LEVEL = 0.06;

const num = (value: number) => String(Number(value.toFixed(5)));

/** `if(lt(t,end1),v1,if(lt(t,end2),v2,...,vn))`: a value per bar without a lookup table. */
function perBar(values: string[], barSec: number): string {
  const last = values[values.length - 1] ?? '0';
  return values
    .slice(0, -1)
    .reduceRight(
      (otherwise, value, index) => `if(lt(t,${num(barSec * (index + 1))}),${value},${otherwise})`,
      last,
    );
}

/** A waveform of phase `x` (already an expression), normalised so its peak is at most 1. */
function wave(kind: Waveform, x: string): string {
  switch (kind) {
    case 'sine':
      return `sin(${x})`;
    case 'organ': // octave partial
      return `(sin(${x})+0.5*sin(2*${x}))/1.5`;
    case 'hollow': // odd partials, square-like
      return `(sin(${x})+sin(3*${x})/3)/1.334`;
    case 'saw': // first three partials of a sawtooth
      return `(sin(${x})+sin(2*${x})/2+sin(3*${x})/3)/1.834`;
  }
}

export function loopSeconds(recipe: SongRecipe): number {
  return (recipe.chords.length * 4 * 60) / recipe.bpm;
}

export interface LoopExpressions {
  /** Pad, arpeggio, bass and kick; run at TONAL_SAMPLE_RATE. */
  tonal: string;
  /** ONE hi-hat hit (a burst of decaying noise); run at the output rate and repeated every hatPeriodSec. */
  hats: string;
  hatPeriodSec: number;
}

/** Highest partial: arpeggio up to ~4 x 330 Hz times the third harmonic, ~4 kHz; this rate's Nyquist is 5.5 kHz. */
export const TONAL_SAMPLE_RATE = 11_025;

export function songLoopExpressions(recipe: SongRecipe): LoopExpressions {
  const beat = 60 / recipe.bpm;
  const bar = 4 * beat;
  const arpStep = recipe.arpStepBeats * beat;
  const kickPeriod = recipe.kickEveryBeats * beat;
  const hatPeriod = recipe.hatEveryBeats * beat;
  // Quarter-note hats sit on the off-beat, between the kicks.
  const hatOffset = recipe.hatEveryBeats === 1 ? beat / 2 : 0;
  // Chord roots within half an octave of the tonic, so the pad moves by small steps.
  const roots = recipe.chords.map((chord) => {
    const semitones = chord.rootSemitones > 6 ? chord.rootSemitones - 12 : chord.rootSemitones;
    return num(recipe.tonicHz * 2 ** (semitones / 12));
  });
  const thirds = recipe.chords.map((chord) => num(chord.minor ? MINOR_THIRD : MAJOR_THIRD));
  const toneRatio = ['1', 'ld(1)', num(FIFTH), '2'];
  const [p0, p1, p2, p3] = recipe.arpPattern.map((tone) => toneRatio[tone] ?? '1');
  const arpRatio = `if(eq(ld(4),0),${p0},if(eq(ld(4),1),${p1},if(eq(ld(4),2),${p2},${p3})))`;
  // Decay so a note has faded to ~5% when the next starts: the phase restart is then inaudible.
  const arpDecay = num(3 / arpStep);
  const bassDecay = num(3 / beat);

  const setup = [
    `st(0,${perBar(roots, bar)})`,
    `st(1,${perBar(thirds, bar)})`,
    `st(2,mod(t,${num(bar)}))`,
    `st(3,mod(t,${num(arpStep)}))`,
    `st(4,mod(floor(t/${num(arpStep)}),4))`,
    // Octave above the pad; phase counted from the note start so every note begins at zero (no click).
    `st(4,2*PI*2*ld(0)*${arpRatio}*ld(3))`,
    `st(5,mod(t,${num(beat)}))`,
    `st(6,mod(t,${num(kickPeriod)}))`,
    `st(7,2*PI*ld(0)*ld(2))`,
  ];
  const voices = [
    // Pad: root, third and fifth, faded in and out within each bar to hide the chord change.
    `${PAD_LEVEL}*min(1,ld(2)*10)*min(1,(${num(bar)}-ld(2))*10)*(sin(ld(7))+sin(ld(7)*ld(1))+sin(ld(7)*${num(FIFTH)}))`,
    `${ARP_LEVEL}*exp(-ld(3)*${arpDecay})*${wave(recipe.arpWaveform, 'ld(4)')}`,
    // Bass: the root an octave below the pad, plucked on every beat.
    `${BASS_LEVEL}*exp(-ld(5)*${bassDecay})*sin(PI*ld(0)*ld(5))`,
    // Kick: a sine sweeping from 135 Hz down to 45 Hz (phase is the integral of 45+90*exp(-28t)).
    `${KICK_LEVEL}*exp(-ld(6)*9)*sin(2*PI*(45*ld(6)+${num(90 / 28)}*(1-exp(-28*ld(6)))))`,
  ];
  return {
    tonal: [...setup, voices.join('+')].join(';'),
    // random(0) keeps its generator state in variable 0; the same seed every run, so output is reproducible.
    // Every hit reuses the same noise, like a drum machine's sample.
    hats: `${HAT_LEVEL}*exp(-mod(t+${num(hatOffset)},${num(hatPeriod)})*70)*(2*random(0)-1)`,
    hatPeriodSec: hatPeriod,
  };
}
