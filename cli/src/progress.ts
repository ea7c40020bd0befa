// What the CLI says while it works, always on stderr (stdout carries only the result, so
// `url=$(berth deploy)` works). On a terminal: one line redrawn in place, with a bar, bytes and
// files. Elsewhere (CI logs, pipes): plain lines, a progress line at most every few seconds, so a
// log stays readable.
import { formatBytes } from "./format";

export interface Counts {
  doneBytes: number;
  totalBytes: number;
  doneFiles: number;
  totalFiles: number;
}

export interface Reporter {
  /** A line of its own ("Publishing…"). */
  line(text: string): void;
  /** How far the current step is. */
  progress(label: string, counts: Counts): void;
  /** The step ended: on a terminal, the bar's line is finished. */
  endProgress(): void;
}

const BAR_WIDTH = 24;
const PLAIN_EVERY_MS = 5000;

export function progressText(label: string, counts: Counts): string {
  return `${label} ${formatBytes(counts.doneBytes)} / ${formatBytes(counts.totalBytes)} · ${counts.doneFiles}/${counts.totalFiles} files`;
}

export function bar(fraction: number, width = BAR_WIDTH): string {
  const filled = Math.round(Math.min(1, Math.max(0, fraction)) * width);
  return "█".repeat(filled) + "░".repeat(width - filled);
}

/** `term`: the terminal's type; "dumb" (an editor's shell, some CI runners) cannot redraw a line. */
export function createReporter(stream: NodeJS.WriteStream = process.stderr, now: () => number = Date.now, term = process.env.TERM): Reporter {
  const tty = stream.isTTY === true && term !== "dumb";
  let drawn = false;
  let lastDraw = Number.NEGATIVE_INFINITY;
  let lastPlain = 0;
  let stepStarted = 0;

  const clear = () => {
    if (drawn) stream.write("\r\x1b[2K");
    drawn = false;
  };

  return {
    line(text) {
      clear();
      stream.write(text + "\n");
    },
    progress(label, counts) {
      const complete = counts.doneFiles >= counts.totalFiles;
      if (tty) {
        // At most ten redraws a second: a redraw per file would cost more than the upload.
        if (!complete && now() - lastDraw < 100) return;
        lastDraw = now();
        const fraction = counts.totalBytes > 0 ? counts.doneBytes / counts.totalBytes : counts.doneFiles / Math.max(1, counts.totalFiles);
        const text = `${bar(fraction)} ${Math.floor(fraction * 100)
          .toString()
          .padStart(3)}% ${progressText(label, counts)}`;
        stream.write("\r\x1b[2K" + text.slice(0, Math.max(20, (stream.columns || 80) - 1)));
        drawn = true;
        return;
      }
      // A step that takes a few seconds gets no progress lines at all (the lines around it say
      // enough); a longer one a line every few seconds, and its last line at the end.
      const at = now();
      if (stepStarted === 0) stepStarted = at;
      const due = at - Math.max(stepStarted, lastPlain) >= PLAIN_EVERY_MS;
      if (due || (complete && lastPlain !== 0)) {
        stream.write(progressText(label, counts) + "\n");
        lastPlain = complete ? 0 : at;
        if (complete) stepStarted = 0;
      }
    },
    endProgress() {
      if (tty && drawn) stream.write("\n");
      drawn = false;
      stepStarted = 0;
      lastPlain = 0;
    },
  };
}
