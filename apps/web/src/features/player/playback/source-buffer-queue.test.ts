import { describe, expect, it } from 'vitest';
import { SourceBufferQueue } from './source-buffer-queue';

/** A SourceBuffer stand-in: one operation at a time, 'updateend' a moment later, window rules enforced. */
class FakeSourceBuffer extends EventTarget {
  updating = false;
  log: string[] = [];
  ranges: Array<[number, number]> = [];
  quotaLeft = Number.POSITIVE_INFINITY;
  private windowStart = 0;
  private windowEnd = Number.POSITIVE_INFINITY;
  timestampOffset = 0;

  get appendWindowStart() {
    return this.windowStart;
  }
  set appendWindowStart(value: number) {
    if (value >= this.windowEnd) throw new TypeError('start must be below end');
    this.windowStart = value;
  }
  get appendWindowEnd() {
    return this.windowEnd;
  }
  set appendWindowEnd(value: number) {
    if (value <= this.windowStart) throw new TypeError('end must be above start');
    this.windowEnd = value;
  }
  get buffered() {
    const ranges = this.ranges;
    return { length: ranges.length, start: (i: number) => ranges[i]![0], end: (i: number) => ranges[i]![1] };
  }

  appendBuffer(data: Uint8Array) {
    this.begin();
    if (data.length > this.quotaLeft) {
      this.updating = false;
      throw new DOMException('full', 'QuotaExceededError');
    }
    this.log.push(`append ${data.length} @${this.timestampOffset} [${this.windowStart},${this.windowEnd})`);
    this.ranges.push([this.windowStart, this.windowEnd]);
    this.finish();
  }

  remove(start: number, end: number) {
    this.begin();
    this.log.push(`remove [${start},${end})`);
    this.ranges = this.ranges.filter(([from]) => from < start || from >= end);
    this.quotaLeft = Number.POSITIVE_INFINITY;
    this.finish();
  }

  private begin() {
    if (this.updating) throw new DOMException('busy', 'InvalidStateError');
    this.updating = true;
  }

  private finish() {
    setTimeout(() => {
      this.updating = false;
      this.dispatchEvent(new Event('updateend'));
    }, 1);
  }
}

const place = (start: number, end: number) => ({
  timestampOffset: start - 0.02,
  appendWindowStart: start,
  appendWindowEnd: end,
});

describe('SourceBufferQueue', () => {
  it('runs operations one at a time, each append at its own place, the window moved either way', async () => {
    const buffer = new FakeSourceBuffer();
    const queue = new SourceBufferQueue(buffer as unknown as SourceBuffer);
    await Promise.all([
      queue.append(new Uint8Array(10), place(100, 106)),
      queue.append(new Uint8Array(20), place(5, 11)),
      queue.remove({ start: 100, end: 106 }),
      queue.append(new Uint8Array(30), place(50, 56)),
    ]);
    expect(buffer.log).toEqual([
      'append 10 @99.98 [100,106)',
      'append 20 @4.98 [5,11)',
      'remove [100,106)',
      'append 30 @49.98 [50,56)',
    ]);
  });

  it('removes everything outside a range', async () => {
    const buffer = new FakeSourceBuffer();
    buffer.ranges = [
      [0, 4],
      [10, 20],
    ];
    await new SourceBufferQueue(buffer as unknown as SourceBuffer).removeOutside({ start: 12, end: 15 });
    expect(buffer.log).toEqual(['remove [0,4)', 'remove [10,12)', 'remove [15,20)']);
  });

  it('makes room once when the browser is out of quota, then fails if that was not enough', async () => {
    const buffer = new FakeSourceBuffer();
    buffer.quotaLeft = 5;
    const queue = new SourceBufferQueue(buffer as unknown as SourceBuffer, () => ({ start: 0, end: 40 }));
    await queue.append(new Uint8Array(10), place(50, 56));
    expect(buffer.log).toEqual(['remove [0,40)', 'append 10 @49.98 [50,56)']);

    const stuck = new FakeSourceBuffer();
    stuck.quotaLeft = 5;
    const nothingToFree = new SourceBufferQueue(stuck as unknown as SourceBuffer, () => null);
    await expect(nothingToFree.append(new Uint8Array(10), place(1, 2))).rejects.toMatchObject({
      name: 'QuotaExceededError',
    });
    // The queue goes on after a failed operation.
    stuck.quotaLeft = 100;
    await nothingToFree.append(new Uint8Array(10), place(1, 2));
    expect(stuck.log).toEqual(['append 10 @0.98 [1,2)']);
  });
});
