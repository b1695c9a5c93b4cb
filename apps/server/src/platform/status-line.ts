import { Writable } from 'node:stream';

/** Erase the current terminal line and return to its start (ANSI: carriage return, erase line). */
const ERASE_LINE = '\r\x1b[2K';

/** Time since `since` as m:ss, for a line that shows a clock. */
export const elapsed = (since: number) => {
  const seconds = Math.floor((Date.now() - since) / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

/**
 * One line at the bottom of a terminal that updates in place (the first start's progress), with the log printing
 * above it: every log chunk erases the line, prints, and draws it again. On anything but a terminal it draws
 * nothing (`interactive` is false) and the log passes straight through.
 */
export class StatusLine {
  private text = '';

  constructor(private readonly out: NodeJS.WritableStream & { isTTY?: boolean } = process.stdout) {}

  get interactive(): boolean {
    return this.out.isTTY === true;
  }

  set(text: string): void {
    if (!this.interactive) return;
    this.text = text;
    this.out.write(`${ERASE_LINE}${text}`);
  }

  clear(): void {
    if (!this.interactive || !this.text) return;
    this.text = '';
    this.out.write(ERASE_LINE);
  }

  /**
   * Shows `text()` now, again every `everyMs` (a clock in it moves even when nothing else does) and whenever the
   * caller draws; returns `{ draw, stop }`, where stop erases the line.
   */
  follow(text: () => string, everyMs = 1000): { draw: () => void; stop: () => void } {
    const draw = () => this.set(text());
    if (!this.interactive) return { draw: () => undefined, stop: () => undefined };
    draw();
    const timer = setInterval(draw, everyMs);
    timer.unref();
    return {
      draw,
      stop: () => {
        clearInterval(timer);
        this.clear();
      },
    };
  }

  /** The stream the logger writes to. */
  logStream(): Writable {
    return new Writable({
      write: (chunk: Buffer | string, _encoding, done) => {
        if (this.text) this.out.write(`${ERASE_LINE}${chunk.toString()}${this.text}`);
        else this.out.write(chunk);
        done();
      },
    });
  }
}
