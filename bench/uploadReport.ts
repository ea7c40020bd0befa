// What the upload bench prints and hands to bench/all.ts: the zip runs' medians with their samples,
// each beside its anchor and the ratio, and the server's memory while one file streams in.
import { median, times, type RssReport } from "./support";
import type { Figure } from "./summary";

export const MiB = 1024 * 1024;
export const ZIP_FILES = 1_000;
export const ZIP_BYTES = 10 * MiB;
export const RSS_REPEATS = 3;

export interface ZipRun {
  /** Berth: last byte → the edge serves the new index.html. */
  live: number;
  /** Berth: last byte → response headers. */
  response: number;
  /** Berth: request start → response headers. */
  total: number;
  /** Berth: request start → last byte handed to the socket. */
  send: number;
  /** Berth: last byte → response headers for a second new zip uploaded with nobody polling. */
  responseUnpolled: number;
  /** Server CPU (user + system) from the start of that unpolled upload to its response. */
  cpuUnpolled: number;
  /** After the response: how long the server kept working in the background, and its CPU. */
  backgroundBusy: number;
  backgroundCpu: number;
  polls: number;
  sinkResponse: number;
  sinkTotal: number;
  extract: number;
  extractSynced: number;
  /** Info-ZIP's unzip on the same zip; undefined when it is not installed. */
  unzip: number | undefined;
}

export interface RssRun extends RssReport {
  fileBytes: number;
  response: number;
}

export const ms = (v: number) => `${v.toFixed(1)} ms`;
export const mb = (kb: number) => `${(kb / 1024).toFixed(1)} MiB`;

const deltaKb = (r: RssRun) => Math.max(r.peakKb, r.hwmKb) - r.beforeKb;

/** For bench/all.ts: last byte → live against its anchors, and the largest RSS delta per file size. */
export function headlineFigures(runs: ZipRun[], rss: RssRun[]): { figures: Figure[]; notes: string[] } {
  const m = (pick: (r: ZipRun) => number) => median(runs.map(pick));
  const sink = m((r) => r.sinkResponse);
  const unzip = runs.every((r) => r.unzip !== undefined) ? m((r) => r.unzip ?? 0) : undefined;
  const figures: Figure[] = [
    {
      figure: `${ZIP_FILES.toLocaleString("en")}-file zip (${ZIP_BYTES / MiB} MiB): last byte → live, median of ${runs.length}`,
      value: m((r) => r.live),
      unit: "ms",
      anchors: [
        { label: "sink + yauzl unzip", value: sink + m((r) => r.extract) },
        { label: "sink + yauzl, fsync per file", value: sink + m((r) => r.extractSynced) },
        ...(unzip === undefined ? [] : [{ label: "sink + Info-ZIP unzip", value: sink + unzip }]),
      ],
    },
  ];
  for (const bytes of [...new Set(rss.map((r) => r.fileBytes))]) {
    const of = rss.filter((r) => r.fileBytes === bytes);
    figures.push({
      figure: `RSS delta while a ${bytes / MiB} MiB file streams in, largest of ${of.length}`,
      value: Math.max(...of.map(deltaKb)) / 1024,
      unit: "MiB",
      anchors: [{ label: "the file's size", value: bytes / MiB }],
    });
  }
  const before = rss.map((r) => r.beforeKb / 1024);
  return {
    figures,
    notes: [
      `${runs.length} zip runs after 1 warm-up; after each, ${(m((r) => r.backgroundBusy) / 1000).toFixed(1)} s of background work ` +
        `(${(m((r) => r.backgroundCpu) / 1000).toFixed(1)} s of server CPU, medians); server RSS before the single-file uploads ` +
        `${Math.min(...before).toFixed(0)}–${Math.max(...before).toFixed(0)} MiB (PGlite)`,
    ],
  };
}

/** The figures as Markdown: medians with their samples, each beside its anchor and the ratio. */
export function report(runs: ZipRun[], rss: RssRun[]): string {
  const m = (pick: (r: ZipRun) => number) => median(runs.map(pick));
  const samples = (pick: (r: ZipRun) => number) => runs.map((r) => pick(r).toFixed(0)).join(", ");
  const berth = (pick: (r: ZipRun) => number) => `${ms(m(pick))} (${samples(pick)})`;
  const row = (label: string, pick: (r: ZipRun) => number, anchorLabel: string, anchor: number) =>
    `| ${label} | ${berth(pick)} | ${anchorLabel}: ${ms(anchor)} | ${times(m(pick), anchor, 2)} |`;
  const live = (r: ZipRun) => r.live;
  const sink = m((r) => r.sinkResponse);
  const unzip = runs.every((r) => r.unzip !== undefined) ? m((r) => r.unzip ?? 0) : undefined;

  const lines = [
    `### ${ZIP_BYTES / MiB} MiB zip of ${ZIP_FILES} files (stored), median of ${runs.length} (samples in brackets)`,
    "",
    "| Measure | Berth, median (samples) | Anchor: same bytes, same run, median | Berth / anchor |",
    "| --- | --- | --- | --- |",
    row("last byte → live", live, "sink writes the body + yauzl unzips it", sink + m((r) => r.extract)),
    row("last byte → live", live, "sink + yauzl unzip, fsync per file and folder", sink + m((r) => r.extractSynced)),
    ...(unzip === undefined ? [] : [row("last byte → live", live, "sink + Info-ZIP unzip (native, no fsync)", sink + unzip)]),
    row("last byte → response", (r) => r.response, "sink, last byte → response", sink),
    row("last byte → response, nobody polling", (r) => r.responseUnpolled, "sink, last byte → response", sink),
    row(
      "request start → response",
      (r) => r.total,
      "sink, start → response",
      m((r) => r.sinkTotal),
    ),
    row(
      "request start → last byte (send)",
      (r) => r.send,
      "sink, start → last byte",
      m((r) => r.sinkTotal - r.sinkResponse),
    ),
    `| server CPU, unpolled upload start → response | ${berth((r) => r.cpuUnpolled)} | | |`,
    `| background work after the response: busy for | ${berth((r) => r.backgroundBusy)} | (250 ms resolution) | |`,
    `| background work after the response: server CPU | ${berth((r) => r.backgroundCpu)} | | |`,
    "",
    `Anchor samples: sink ${samples((r) => r.sinkResponse)}; yauzl ${samples((r) => r.extract)}; ` +
      `yauzl with fsync ${samples((r) => r.extractSynced)}${unzip === undefined ? "" : `; Info-ZIP ${samples((r) => r.unzip ?? 0)}`} (ms).`,
    "",
    `### Server RSS while one file uploads (POST /api/sites/:id/files, report.pdf; a fresh server per size, ${RSS_REPEATS} uploads each)`,
    "",
    "| File | Upload time | RSS before | Peak RSS (sampled) | VmHWM | Delta | Delta / file size |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    ...rss.map((r) => {
      const delta = deltaKb(r);
      const perByte = ((delta * 1024) / r.fileBytes).toFixed(3);
      return `| ${r.fileBytes} B | ${ms(r.response)} | ${mb(r.beforeKb)} | ${mb(r.peakKb)} | ${mb(r.hwmKb)} | ${mb(delta)} | ${perByte} |`;
    }),
    "",
    ...[...new Set(rss.map((r) => r.fileBytes))].map((bytes) => {
      const deltas = rss.filter((r) => r.fileBytes === bytes).map(deltaKb);
      return `Largest delta for ${bytes} B: ${mb(Math.max(...deltas))} = ${((Math.max(...deltas) * 1024) / bytes).toFixed(3)} of the file.`;
    }),
  ];
  return `\n${lines.join("\n")}\n`;
}
