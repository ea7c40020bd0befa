// The publish check over one deployment's files: every HTML and CSS file is read (a bounded
// amount of each, and of all together) and each reference it holds is resolved as the edge would
// resolve it for a visitor. Pure apart from `read`, so the worker, the tests and the bench run
// exactly this.
import { MAX_STORED_FINDINGS, type CheckCounts, type StoredFinding } from "../../common/checks";
import { chooseRoot, type Manifest, type ManifestFile } from "../sites/siteManifest";
import { routeRequest } from "../sites/routePath";
import type { RedirectRule } from "../siteConfig/redirects";
import { scanCss } from "./scanCss";
import { LineCounter, scanHtml, type RefUse } from "./scanHtml";
import { classifyRef, fileBase, intendedPaths, resolveBase, resolvePath } from "./resolveRef";

export interface CheckedFile {
  path: string;
  sha256: string;
  size: number;
  contentType: string;
}

/** The bytes read of one file at most: pages and stylesheets written by hand are far smaller. */
export const MAX_FILE_SCAN_BYTES = 2 * 1024 * 1024;
/** The bytes read of one deployment at most, so one check's time is bounded whatever it holds. */
export const MAX_TOTAL_SCAN_BYTES = 24 * 1024 * 1024;
/** References resolved per deployment at most (each costs a URL parse and a route); past it the rest go unchecked. */
export const MAX_REFS = 50_000;
/** Renames the case fix may make, at most. */
export const MAX_RENAMES = 1000;
/** Files read at once: the next ones are read while one is scanned. */
const READ_AHEAD = 4;
/** Distinct findings remembered to drop repeats; past it repeats are counted again. */
const MAX_SEEN = 5_000;
/** Spellings wanted for one file, at most (a hostile page can spell a name in endless ways). */
const MAX_NAMES_PER_FILE = 8;
const HAS_BASE = /<base[\s/>]/i;
const MAX_TARGET = 300;
const MAX_CANDIDATES = 5;

/** The case fix for one file: its new name, and whether the old one stays too (also referenced). */
export interface CaseRename {
  from: string;
  to: string;
  keep: boolean;
}

export interface CheckOutcome {
  findings: StoredFinding[];
  counts: CheckCounts;
  problemCount: number;
  truncated: boolean;
  filesChecked: number;
  filesPartlyChecked: number;
  renames: CaseRename[];
}

export type ReadFile = (file: CheckedFile, maxBytes: number) => Promise<string>;

const HTML = /\.(?:html?|xhtml)$/i;
const CSS = /\.css$/i;
const LIKELY_INDEX = /^(?:index|home|main|default|start|welcome)\.html?$/i;
const SPECIAL_PAGES = new Set(["404.html", "200.html"]);

const isHtml = (f: CheckedFile) => HTML.test(f.path) || f.contentType.startsWith("text/html");
const isCss = (f: CheckedFile) => CSS.test(f.path) || f.contentType.startsWith("text/css");

// eslint-disable-next-line no-control-regex -- control characters are what is replaced
const CONTROL = /[\u0000-\u001f\u007f]/g;
const cut = (text: string) => (text.length > MAX_TARGET ? `${text.slice(0, MAX_TARGET)}…` : text).replace(CONTROL, "\uFFFD");

/** A manifest of the files for route.ts, which the edge and this check both resolve paths with. */
export function manifestOf(files: readonly CheckedFile[]): Manifest {
  const map = new Map<string, ManifestFile>();
  for (const f of files) map.set(f.path, { path: f.path, sha256: f.sha256, size: f.size, contentType: f.contentType, etag: "" });
  return {
    deploymentId: "",
    files: map,
    root: chooseRoot([...map.keys()]),
    publishedAt: new Date(0),
    config: { redirects: [], headers: [] },
    bytes: 0,
  };
}

export async function checkFiles(files: readonly CheckedFile[], rules: readonly RedirectRule[], read: ReadFile): Promise<CheckOutcome> {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const manifest = manifestOf(sorted);
  // Lower-cased path → the files with it (two at most are kept: more than one means no single answer).
  const byLowerCase = new Map<string, string[]>();
  for (const f of sorted) {
    const key = f.path.toLowerCase();
    const list = byLowerCase.get(key);
    if (!list) byLowerCase.set(key, [f.path]);
    else if (list.length < 2) list.push(f.path);
  }

  const findings: StoredFinding[] = [];
  const counts: CheckCounts = {};
  const seen = new Set<string>();
  let problemCount = 0;
  const add = (finding: Omit<StoredFinding, "candidates" | "nested" | "actual"> & Partial<StoredFinding>) => {
    const target = finding.target === null ? null : cut(finding.target);
    const key = `${finding.kind}\u0000${finding.file}\u0000${target}`;
    if (seen.has(key)) return;
    if (seen.size < MAX_SEEN) seen.add(key);
    problemCount++;
    counts[finding.kind] = (counts[finding.kind] ?? 0) + 1;
    if (findings.length < MAX_STORED_FINDINGS) findings.push({ actual: null, candidates: [], nested: [], ...finding, target });
  };

  const noIndex = findNoIndex(sorted, manifest, rules);
  if (noIndex) add(noIndex);

  // The case fix: each file's wanted names, and which files are referenced under their own name.
  const wanted = new Map<string, Set<string>>();
  const referencedAsIs = new Set<string>();

  let refs = 0;
  const checkRef = (file: string, line: number, raw: string, use: RefUse, frame: boolean, baseUrl: string | null) => {
    if (++refs > MAX_REFS) return;
    const ref = classifyRef(raw, use, baseUrl);
    if (ref.kind === "skip") return;
    const base = { file, line, target: raw.trim() };
    if (ref.kind === "local") return add({ kind: "local_link", ...base });
    if (ref.kind === "insecure") return add({ kind: "insecure_resource", ...base });
    const outcome = resolvePath(manifest, rules, ref.path, ref.directory, frame ? "link" : use);
    if (outcome.ok) {
      if (outcome.file !== null) referencedAsIs.add(outcome.file);
      return;
    }
    for (const intended of intendedPaths(ref.path, ref.directory)) {
      const matches = byLowerCase.get(intended.toLowerCase());
      if (matches?.length === 1 && matches[0] !== intended) {
        const actual = matches[0]!;
        const names = wanted.get(actual) ?? new Set<string>();
        if ((wanted.size < MAX_RENAMES || wanted.has(actual)) && names.size < MAX_NAMES_PER_FILE) {
          names.add(intended);
          wanted.set(actual, names);
        }
        return add({ kind: "case_mismatch", ...base, actual });
      }
    }
    add({ kind: "missing_file", ...base });
  };

  let budget = MAX_TOTAL_SCAN_BYTES;
  let filesChecked = 0;
  let filesPartlyChecked = 0;
  const toRead: Array<{ file: CheckedFile; bytes: number; html: boolean }> = [];
  for (const file of sorted) {
    const html = isHtml(file);
    if (!html && !isCss(file)) continue;
    const bytes = Math.min(file.size, MAX_FILE_SCAN_BYTES, budget);
    budget -= bytes;
    if (bytes < file.size) filesPartlyChecked++;
    if (bytes > 0 || file.size === 0) toRead.push({ file, bytes, html });
  }

  // Reads run ahead of the scan, a few at a time; the scan goes in path order, so the findings
  // come out sorted by file and line without being held and sorted.
  const pending: Array<Promise<string> | undefined> = [];
  const start = (index: number) => {
    const next = toRead[index];
    if (!next) return;
    const reading = next.bytes === 0 ? Promise.resolve("") : read(next.file, next.bytes);
    // A read that fails while an earlier file is scanned is reported when its turn comes (or not
    // at all, when an earlier failure ended the check), never as an unhandled rejection.
    reading.catch(() => undefined);
    pending[index] = reading;
  };
  for (let k = 0; k < READ_AHEAD; k++) start(k);
  for (let index = 0; index < toRead.length; index++) {
    const { file, html } = toRead[index]!;
    let text: string;
    try {
      text = await pending[index]!;
    } finally {
      pending[index] = undefined;
      start(index + READ_AHEAD);
    }
    filesChecked++;
    if (refs >= MAX_REFS) filesPartlyChecked++;
    const own = fileBase(file.path);
    if (html) {
      // A <base href> changes what every reference after it resolves against; it is rare and
      // belongs in <head>, so a second pass runs only for pages that have one.
      const base = HAS_BASE.test(text) ? scanHtml(text, () => {}).base : null;
      const baseUrl = base === null ? own : resolveBase(own, base);
      scanHtml(text, (ref) => checkRef(file.path, ref.line, ref.value, ref.use, ref.frame === true, baseUrl));
    } else {
      const lines = new LineCounter(text);
      scanCss(text, (ref) => checkRef(file.path, lines.at(ref.pos), ref.value, "resource", false, own));
    }
  }

  const renames: CaseRename[] = [];
  for (const [from, names] of wanted) {
    // Another spelling in use, or several: the file keeps its name and gains each wanted one.
    const keep = referencedAsIs.has(from) || names.size > 1;
    for (const to of names) renames.push({ from, to, keep });
  }
  return {
    findings,
    counts,
    problemCount,
    truncated: problemCount > findings.length,
    filesChecked,
    filesPartlyChecked,
    renames,
  };
}

/** No index.html at the top level (when the site has pages at all): the root shows a file list. */
function findNoIndex(files: readonly CheckedFile[], manifest: Manifest, rules: readonly RedirectRule[]): StoredFinding | undefined {
  if (!files.some(isHtml)) return undefined;
  if (routeRequest(manifest, rules, "", true).route.kind !== "root") return undefined;
  const top = files.filter((f) => !f.path.includes("/") && HTML.test(f.path) && !SPECIAL_PAGES.has(f.path.toLowerCase())).map((f) => f.path);
  const candidates = [...top.filter((p) => LIKELY_INDEX.test(p)), ...top.filter((p) => !LIKELY_INDEX.test(p))].slice(0, MAX_CANDIDATES);
  const nested = files
    .filter((f) => /^[^/]+\/index\.html?$/i.test(f.path))
    .map((f) => f.path.slice(0, f.path.indexOf("/")))
    .slice(0, 3);
  return { kind: "no_index", file: null, line: null, target: null, actual: null, candidates, nested };
}
