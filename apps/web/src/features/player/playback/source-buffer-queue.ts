import type { Placement, TimeRange } from './gapless-timing';

/**
 * A SourceBuffer takes one operation at a time (appendBuffer or remove, then 'updateend'); this runs them in order.
 * ADTS is a byte stream without timestamps, so the buffer is in 'sequence' mode and every append states where its
 * frames go (timestamp offset and append window) right before it is made.
 */
export class SourceBufferQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly buffer: SourceBuffer,
    /** What may go when an append exceeds the browser's quota (null: nothing). */
    private readonly spareRange: () => TimeRange | null = () => null,
  ) {}

  /** Appends `data` at `placement`; resolves once the buffer has taken it. */
  append(data: Uint8Array<ArrayBuffer>, placement: Placement): Promise<void> {
    return this.enqueue(async () => {
      setPlacement(this.buffer, placement);
      try {
        await this.run(() => this.buffer.appendBuffer(data));
      } catch (error) {
        if (!(error instanceof DOMException && error.name === 'QuotaExceededError')) throw error;
        const spare = this.spareRange();
        if (!spare || spare.end <= spare.start) throw error;
        await this.run(() => this.buffer.remove(spare.start, spare.end));
        setPlacement(this.buffer, placement);
        await this.run(() => this.buffer.appendBuffer(data));
      }
    });
  }

  remove(range: TimeRange): Promise<void> {
    return this.enqueue(() =>
      range.end > range.start
        ? this.run(() => this.buffer.remove(range.start, range.end))
        : Promise.resolve(),
    );
  }

  /** Removes every buffered range outside `keep`. */
  removeOutside(keep: TimeRange): Promise<void> {
    return this.enqueue(async () => {
      for (const range of bufferedRanges(this.buffer)) {
        if (range.start < keep.start) {
          await this.run(() => this.buffer.remove(range.start, Math.min(range.end, keep.start)));
        }
        if (range.end > keep.end) {
          await this.run(() => this.buffer.remove(Math.max(range.start, keep.end), range.end));
        }
      }
    });
  }

  /** Runs no further operation (the MediaSource is going away). */
  close(): void {
    this.closed = true;
  }

  private enqueue(operation: () => Promise<void>): Promise<void> {
    const result = this.tail.then(() => (this.closed ? undefined : operation()));
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Starts one operation and waits for its 'updateend' ('error' rejects). */
  private run(start: () => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const done = () => {
        this.buffer.removeEventListener('updateend', done);
        this.buffer.removeEventListener('error', failed);
        resolve();
      };
      const failed = () => {
        this.buffer.removeEventListener('updateend', done);
        this.buffer.removeEventListener('error', failed);
        reject(new Error('the media buffer refused the data'));
      };
      this.buffer.addEventListener('updateend', done);
      this.buffer.addEventListener('error', failed);
      try {
        start();
      } catch (error) {
        this.buffer.removeEventListener('updateend', done);
        this.buffer.removeEventListener('error', failed);
        reject(error as Error);
      }
    });
  }
}

/** The window may only be set to a valid interval at every step, so it is opened wide first. */
function setPlacement(buffer: SourceBuffer, placement: Placement): void {
  buffer.appendWindowStart = 0;
  buffer.appendWindowEnd = placement.appendWindowEnd;
  buffer.appendWindowStart = placement.appendWindowStart;
  buffer.timestampOffset = placement.timestampOffset;
}

export function bufferedRanges(buffer: SourceBuffer | HTMLMediaElement): TimeRange[] {
  const { buffered } = buffer;
  const ranges: TimeRange[] = [];
  for (let i = 0; i < buffered.length; i += 1)
    ranges.push({ start: buffered.start(i), end: buffered.end(i) });
  return ranges;
}
