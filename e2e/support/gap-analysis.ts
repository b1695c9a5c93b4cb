/**
 * Measures how two songs cut from one continuous tone join in the audio a page actually played.
 *
 * The tone is two sines (TONE_HZ). Where the songs meet, the tone continues exactly if nothing was lost or inserted;
 * any gap or overlap of d seconds shifts the tone after the join by d. Fitting each sine's phase just before and just
 * after the join measures d: the low sine resolves it unambiguously within half its period (+-25 ms), the high sine
 * to a few microseconds. Silence inserted at the join is also measured directly, as the longest run of silent
 * samples near it.
 */

/** The bench album's tone: a low sine to place a gap within +-25 ms, a high one to measure it finely. */
export const TONE_HZ = [20, 1000] as const;
export const TONE_AMPLITUDES = [0.4, 0.3] as const;

/** The fit windows keep this far from the join, so an imprecise join position cannot reach into them. */
const GUARD_S = 0.1;
const WINDOW_S = 0.3;
const SILENT_LEVEL = 1e-4;

export interface JoinMeasurement {
  /** Milliseconds the tone after the join is late (a gap) or, negative, early (samples lost). */
  offsetMs: number;
  /** The longest run of silent samples within GUARD_S of the join, in milliseconds. */
  silentMs: number;
  /** The larger of the two magnitudes: the join's gap. */
  gapMs: number;
  /** Fitted amplitudes of the sines before and after (a check that the tone is there at all). */
  amplitudes: { before: number[]; after: number[] };
}

interface Fit {
  amplitude: number;
  phase: number;
}

/** Least-squares fit of sum_k a_k cos(w_k n) + b_k sin(w_k n) + c over samples [from, to). */
export function fitSines(samples: Float32Array, from: number, to: number, omegas: readonly number[]): Fit[] {
  const size = omegas.length * 2 + 1;
  const normal = Array.from({ length: size }, () => new Float64Array(size + 1));
  const row = new Float64Array(size);
  for (let n = Math.max(0, from); n < Math.min(samples.length, to); n += 1) {
    omegas.forEach((omega, k) => {
      row[2 * k] = Math.cos(omega * n);
      row[2 * k + 1] = Math.sin(omega * n);
    });
    row[size - 1] = 1;
    const y = samples[n]!;
    for (let i = 0; i < size; i += 1) {
      const line = normal[i]!;
      for (let j = 0; j < size; j += 1) line[j]! += row[i]! * row[j]!;
      line[size]! += row[i]! * y;
    }
  }
  // Gauss-Jordan elimination with partial pivoting on the normal equations.
  for (let i = 0; i < size; i += 1) {
    let pivot = i;
    for (let r = i + 1; r < size; r += 1)
      if (Math.abs(normal[r]![i]!) > Math.abs(normal[pivot]![i]!)) pivot = r;
    [normal[i], normal[pivot]] = [normal[pivot]!, normal[i]!];
    for (let r = 0; r < size; r += 1) {
      if (r === i) continue;
      const factor = normal[r]![i]! / normal[i]![i]!;
      for (let c = i; c <= size; c += 1) normal[r]![c]! -= factor * normal[i]![c]!;
    }
  }
  const solution = normal.map((line, i) => line[size]! / line[i]!);
  return omegas.map((_, k) => {
    const a = solution[2 * k]!;
    const b = solution[2 * k + 1]!;
    return { amplitude: Math.hypot(a, b), phase: Math.atan2(-b, a) };
  });
}

const wrap = (phase: number) => phase - 2 * Math.PI * Math.round(phase / (2 * Math.PI));

/** Measures the join near sample `at` (its position may be off by up to GUARD_S). */
export function measureJoin(samples: Float32Array, at: number, rate: number): JoinMeasurement {
  const omegas = TONE_HZ.map((hz) => (2 * Math.PI * hz) / rate);
  const guard = Math.round(GUARD_S * rate);
  const window = Math.round(WINDOW_S * rate);
  const before = fitSines(samples, at - guard - window, at - guard, omegas);
  const after = fitSines(samples, at + guard, at + guard + window, omegas);
  // x = A cos(w n - p): audio arriving d samples late reads as A cos(w (n - d) - p), its phase grown by w d.
  const shift = (k: number) => -wrap(after[k]!.phase - before[k]!.phase) / omegas[k]!;
  const coarse = shift(0);
  const finePeriod = rate / TONE_HZ[1];
  const fine = shift(1);
  const offset = fine + Math.round((coarse - fine) / finePeriod) * finePeriod;

  let run = 0;
  let longest = 0;
  for (let n = Math.max(0, at - guard); n < Math.min(samples.length, at + guard); n += 1) {
    run = Math.abs(samples[n]!) < SILENT_LEVEL ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  const offsetMs = (offset / rate) * 1000;
  const silentMs = (longest / rate) * 1000;
  return {
    offsetMs,
    silentMs,
    gapMs: Math.max(Math.abs(offsetMs), silentMs),
    amplitudes: { before: before.map((fit) => fit.amplitude), after: after.map((fit) => fit.amplitude) },
  };
}

/** The tone at `rate`, `seconds` long, starting at phase 0. */
export function toneSamples(rate: number, seconds: number): Float32Array {
  const samples = new Float32Array(Math.round(rate * seconds));
  for (let n = 0; n < samples.length; n += 1) {
    let value = 0;
    TONE_HZ.forEach((hz, k) => (value += TONE_AMPLITUDES[k]! * Math.sin((2 * Math.PI * hz * n) / rate)));
    samples[n] = value;
  }
  return samples;
}

/**
 * Proves the instrument on synthetic joins before it is trusted: a perfect join, 2 ms of silence inserted, and
 * 1.5 ms of samples lost. Throws when any is misread by more than 0.05 ms.
 */
export function selfCheck(rate = 48000): void {
  const tone = toneSamples(rate, 2);
  const cut = Math.round(rate * 0.9731);
  const join = (inserted: number, lost: number) => {
    const out = new Float32Array(tone.length + inserted);
    out.set(tone.subarray(0, cut));
    out.set(tone.subarray(cut + lost), cut + inserted);
    return out;
  };
  const cases = [
    { samples: join(0, 0), expected: 0 },
    { samples: join(Math.round(rate * 0.002), 0), expected: 2 },
    { samples: join(0, Math.round(rate * 0.0015)), expected: -1.5 },
  ];
  for (const { samples, expected } of cases) {
    // Told the join is 40 ms away from where it is, as a real capture's estimate may be.
    const measured = measureJoin(samples, cut + Math.round(rate * 0.04), rate);
    if (Math.abs(measured.offsetMs - expected) > 0.05) {
      throw new Error(`gap analysis self-check: expected ${expected} ms, measured ${measured.offsetMs} ms`);
    }
  }
}
