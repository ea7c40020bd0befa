// Progress on stderr: a bar redrawn in place on a terminal, a few plain lines in a log.
import { describe, expect, it } from "vitest";
import { bar, createReporter } from "./progress";

function stream(isTTY: boolean) {
  let text = "";
  return { out: { write: (chunk: string) => ((text += chunk), true), isTTY, columns: 100 } as unknown as NodeJS.WriteStream, text: () => text };
}

const counts = (done: number, total = 10) => ({ doneBytes: done * 1000, totalBytes: total * 1000, doneFiles: done, totalFiles: total });

describe("progress", () => {
  it("on a terminal: one line redrawn, with bar, bytes and files, finished with a newline", () => {
    const { out, text } = stream(true);
    let clock = 0;
    const reporter = createReporter(out, () => clock, "xterm-256color");
    reporter.progress("Uploading", counts(5));
    clock += 50;
    reporter.progress("Uploading", counts(6)); // too soon: not drawn
    clock += 100;
    reporter.progress("Uploading", counts(10));
    reporter.endProgress();
    reporter.line("Publishing…");
    const frames = text().split("\r\x1b[2K").filter(Boolean);
    expect(frames).toEqual([
      `${bar(0.5)}  50% Uploading 5.0 kB / 10.0 kB · 5/10 files`,
      `${bar(1)} 100% Uploading 10.0 kB / 10.0 kB · 10/10 files\nPublishing…\n`,
    ]);
  });

  it("in a log: nothing for a short step, a line every few seconds for a long one, and its end", () => {
    const quick = stream(false);
    let clock = 1000;
    const reporter = createReporter(quick.out, () => clock);
    reporter.progress("Uploading", counts(5));
    reporter.progress("Uploading", counts(10));
    reporter.endProgress();
    expect(quick.text()).toBe("");

    const slow = stream(false);
    const slowReporter = createReporter(slow.out, () => clock);
    slowReporter.progress("Uploading", counts(1));
    clock += 6000;
    slowReporter.progress("Uploading", counts(4));
    clock += 1000;
    slowReporter.progress("Uploading", counts(5));
    slowReporter.progress("Uploading", counts(10));
    slowReporter.endProgress();
    expect(slow.text()).toBe("Uploading 4.0 kB / 10.0 kB · 4/10 files\nUploading 10.0 kB / 10.0 kB · 10/10 files\n");
  });

  it("on a terminal that cannot redraw (TERM=dumb): plain lines, as in a log", () => {
    const { out, text } = stream(true);
    let clock = 1000;
    const reporter = createReporter(out, () => clock, "dumb");
    reporter.progress("Uploading", counts(1));
    clock += 6000;
    reporter.progress("Uploading", counts(4));
    reporter.progress("Uploading", counts(10));
    reporter.endProgress();
    reporter.line("Publishing…");
    expect(text()).toBe("Uploading 4.0 kB / 10.0 kB · 4/10 files\nUploading 10.0 kB / 10.0 kB · 10/10 files\nPublishing…\n");
  });
});
