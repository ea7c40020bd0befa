// The publish check: after every publish the worker reads the new version's HTML and CSS and lists
// what will not work once it is on a web server. Shared by the server (which stores findings as
// data) and the dashboard (which shows them with their hint).
//
//   GET  /api/sites/:id/deployments/:did/check              → DeploymentCheckResponse
//   POST /api/sites/:id/deployments/:did/check/fix-case     → 201 DeploymentResponse (a new version)
//   POST /api/sites/:id/deployments/:did/check/use-index    UseIndexRequest → 201 DeploymentResponse
import { z } from "zod";

export const CHECK_FINDING_KINDS = ["no_index", "missing_file", "case_mismatch", "local_link", "insecure_resource"] as const;
export type CheckFindingKind = (typeof CHECK_FINDING_KINDS)[number];

export const CHECK_STATUSES = ["pending", "done", "failed"] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];

/** At most this many findings are kept per check; the counts cover every one found. */
export const MAX_STORED_FINDINGS = 200;

/** A finding as stored: what the scanner saw, without the words (texts can change, data stays). */
export const StoredFinding = z.object({
  kind: z.enum(CHECK_FINDING_KINDS),
  /** The file that holds the reference; null for the site as a whole (no index). */
  file: z.string().nullable(),
  line: z.number().int().nullable(),
  /** The reference as written (cut to 300 characters). */
  target: z.string().nullable(),
  /** case_mismatch: the file that exists, in its own case. */
  actual: z.string().nullable(),
  /** no_index: the files at the root that could be the home page, likeliest first. */
  candidates: z.array(z.string()),
  /** no_index: folders that hold an index.html of their own (a site uploaded one level too deep). */
  nested: z.array(z.string()),
});
export type StoredFinding = z.infer<typeof StoredFinding>;

export const CheckFinding = StoredFinding.extend({ hint: z.string() });
export type CheckFinding = z.infer<typeof CheckFinding>;

export const CheckCounts = z.partialRecord(z.enum(CHECK_FINDING_KINDS), z.number().int());
export type CheckCounts = z.infer<typeof CheckCounts>;

/** What a deployment card shows without asking for the findings. */
export const CheckSummary = z.object({
  status: z.enum(CHECK_STATUSES),
  problem_count: z.number().int(),
  counts: CheckCounts,
});
export type CheckSummary = z.infer<typeof CheckSummary>;

export const DeploymentCheckResponse = CheckSummary.extend({
  deployment_id: z.string(),
  version: z.number().int(),
  findings: z.array(CheckFinding).describe("At most 200, the site-wide ones first, then by file and line."),
  /** More problems were found than are listed. */
  truncated: z.boolean(),
  files_checked: z.number().int(),
  /** HTML or CSS files read only in part (or not at all) because the check reads a bounded amount. */
  files_partly_checked: z.number().int(),
  checked_at: z.string().nullable(),
  fixes: z.object({
    /** Files the case fix gives the name their references use. */
    case_renames: z.number().int(),
    /** Root files that "Use X as the index page" can copy to index.html. */
    index_candidates: z.array(z.string()),
    /** Fixes publish a new version from the live one's files, so they apply only to the live version. */
    applicable: z.boolean(),
  }),
});
export type DeploymentCheckResponse = z.infer<typeof DeploymentCheckResponse>;

export const UseIndexRequest = z.object({ path: z.string().min(1).max(1024) });
export type UseIndexRequest = z.infer<typeof UseIndexRequest>;

export const CHECK_TEXT = {
  checking: "Checking links and files…",
  noProblems: "No problems found",
  checkFailed: "The check could not read this version's files",
  fixCase: "Fix case mismatches",
  indexButton: (path: string) => `Use ${path} as the index page`,
  problems: (n: number) => (n === 1 ? "1 problem found" : `${n} problems found`),
  notLive: "Fixes apply to the live version. Make this version live first.",
  labels: {
    no_index: "No index.html",
    missing_file: "Missing file",
    case_mismatch: "Case mismatch",
    local_link: "Link to your computer",
    insecure_resource: "Insecure http:// resource",
  } satisfies Record<CheckFindingKind, string>,
} as const;

/** One sentence that says why the finding breaks the site and what to do. */
export function findingHint(finding: StoredFinding): string {
  switch (finding.kind) {
    case "no_index": {
      const nested = finding.nested.length > 0 ? ` ${finding.nested[0]}/ holds an index.html: upload that folder's contents instead.` : "";
      const offer =
        finding.candidates.length > 0
          ? ` Name your home page index.html, or use ${finding.candidates[0]} as the index page.`
          : " Name your home page index.html.";
      return `Without an index.html at the top level, the site's address shows a list of files instead of a page.${offer}${nested}`;
    }
    case "missing_file":
      return "No file in this version answers this path, so visitors get a 404. Upload the file or correct the path; a path that starts with / starts at the site's top level, others at this file's folder.";
    case "case_mismatch":
      return `The file is named ${finding.actual ?? "differently"}. Windows and Mac disks ignore capital letters, web servers do not: make both spellings the same.`;
    case "local_link":
      return "This points at a file or server on your own computer, which visitors cannot reach. Link to a file in the site, or to a public address.";
    case "insecure_resource":
      return "Browsers block http:// scripts, styles and frames on an https page, and warn about http:// images and media. Use https://, or put the file in the site.";
  }
}
