// The operations the crash test kills the server during, each with the request that performs it
// and the states it may leave its site in (support/model.ts): after it, before it when it was
// not answered, and the in-between states where one of its steps committed and the next did not.
import type { ApiClient, Answer } from "./client";
import { parse } from "./client";
import { binaryFile, textFile, zipOf, type Contents, type SiteFile } from "./contents";
import type { DbState } from "./invariants";
import { unchanged, withFiles, type SiteModel, type SiteState } from "./model";
import type { Random } from "./random";

export type Kind = "upload" | "zip" | "publish" | "rollback" | "delete" | "purge" | "avatar" | "create";
export const KINDS: readonly Kind[] = ["upload", "zip", "publish", "rollback", "delete", "purge", "avatar", "create"];

export interface Operation {
  kind: Kind;
  label: string;
  /** The site it changes; a creation learns it from the database. */
  siteId: string | undefined;
  send(): Promise<Answer>;
  before: SiteState;
  after: SiteState;
  intermediate: SiteState[];
  /** Site files whose bytes must be served when the operation was answered. */
  files: Array<{ path: string; sha: string }>;
  /** create: the subdomain the new site gets. */
  subdomain?: string;
  /** avatar: the picture before and after. */
  avatar?: { before: string | null; after: string };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export class Operations {
  constructor(
    private readonly api: ApiClient,
    private readonly contents: Contents,
    /** Sizes and bytes. */
    private readonly bytes: Random,
    /** Rollback targets. */
    private readonly choices: Random,
    private readonly scratch: string,
  ) {}

  private remember(files: SiteFile[]): Array<{ path: string; sha: string }> {
    return files.map((f) => ({ path: f.path, sha: this.contents.remember(f.bytes) }));
  }

  /** `count` small pages, styles and scripts with an image now and then, some in subfolders. */
  files(cycle: number, folder: string, count: number): SiteFile[] {
    const files: SiteFile[] = [];
    for (let i = 0; i < count; i++) {
      const name = `${folder}${i % 7 === 0 ? `part${i % 5}/` : ""}f${i}`;
      const marker = `z${cycle}-${i}`;
      if (i % 13 === 0) files.push(binaryFile(this.bytes, `${name}.png`, marker, this.bytes.int(10_000, 60_000)));
      else files.push(textFile(this.bytes, `${name}.${this.bytes.pick(["html", "css", "js"])}`, marker, this.bytes.int(80, 3000)));
    }
    return files;
  }

  /** One file: a compressible page, a picture, or a document of several megabytes. */
  upload(cycle: number, site: SiteModel): Operation {
    const flavour = this.bytes.int(0, 2);
    const file =
      flavour === 0
        ? textFile(this.bytes, `u${cycle}.html`, `u${cycle}`, this.bytes.int(200, 40_000))
        : flavour === 1
          ? binaryFile(this.bytes, `u${cycle}.png`, `u${cycle}`, this.bytes.int(100_000, 1_000_000))
          : binaryFile(this.bytes, `u${cycle}.pdf`, `u${cycle}`, this.bytes.int(2_000_000, 8_000_000));
    const files = this.remember([file]);
    const tree = withFiles(site.tree, files);
    return {
      kind: "upload",
      label: `upload of ${file.path} (${file.bytes.length} bytes) to ${site.subdomain}`,
      siteId: site.id,
      send: () => this.api.multipart("POST", `/api/sites/${site.id}/files`, {}, { name: file.path, content: file.bytes, type: file.type }),
      before: unchanged(site),
      after: { label: "after", exists: true, tree, live: "new", liveFiles: tree, deleted: false },
      intermediate: [{ label: "committed, not published", exists: true, tree, live: "same", deleted: false }],
      files,
    };
  }

  /** A zip of 200 to 600 entries, unpacked into the site. */
  async zip(cycle: number, site: SiteModel): Promise<Operation> {
    // A file beside the folder: a zip whose entries all sit in one folder is unpacked from inside it.
    const files = [textFile(this.bytes, `z${cycle}.html`, `z${cycle}`, 500), ...this.files(cycle, `z${cycle}/`, this.bytes.int(200, 600))];
    const zip = await zipOf(this.bytes, this.scratch, files);
    const recorded = this.remember(files);
    const tree = withFiles(site.tree, recorded);
    return {
      kind: "zip",
      label: `zip of ${files.length} entries (${zip.length} bytes) to ${site.subdomain}`,
      siteId: site.id,
      send: () =>
        this.api.multipart(
          "POST",
          `/api/sites/${site.id}/files`,
          { extract: "true" },
          { name: `bundle-${cycle}.zip`, content: zip, type: "application/zip" },
        ),
      before: unchanged(site),
      after: { label: "after", exists: true, tree, live: "new", liveFiles: tree, deleted: false },
      intermediate: [{ label: "committed, not published", exists: true, tree, live: "same", deleted: false }],
      files: recorded,
    };
  }

  /** "Deploy now": the working tree as a new version. */
  publish(site: SiteModel): Operation {
    return {
      kind: "publish",
      label: `publish of ${site.subdomain}`,
      siteId: site.id,
      send: () => this.api.json("POST", `/api/sites/${site.id}/deployments`),
      before: unchanged(site),
      after: { label: "after", exists: true, tree: site.tree, live: "new", liveFiles: site.tree, deleted: false },
      intermediate: [],
      files: [...site.tree].map(([p, sha]) => ({ path: p, sha })),
    };
  }

  /** Back to one of the site's kept versions; undefined when it has no other. */
  rollback(site: SiteModel, state: DbState): Operation | undefined {
    const targets = [...state.deployments.values()].filter((d) => d.site_id === site.id && d.status === "success" && d.id !== site.liveId);
    if (targets.length === 0) return undefined;
    const target = this.choices.pick(targets);
    const files = state.manifests.get(target.id) ?? new Map<string, string>();
    return {
      kind: "rollback",
      label: `rollback of ${site.subdomain} to v${target.version}`,
      siteId: site.id,
      send: () => this.api.json("POST", `/api/sites/${site.id}/deployments/${target.id}/rollback`),
      before: unchanged(site),
      after: { label: "after", exists: true, tree: files, live: { id: target.id }, liveFiles: files, deleted: false },
      intermediate: [],
      files: [...files].slice(0, 20).map(([p, sha]) => ({ path: p, sha })),
    };
  }

  delete(site: SiteModel): Operation {
    return {
      kind: "delete",
      label: `delete of ${site.subdomain}`,
      siteId: site.id,
      send: () => this.api.send("DELETE", `/api/sites/${site.id}`),
      before: unchanged(site),
      after: { label: "after", exists: true, tree: site.tree, live: "same", deleted: true },
      intermediate: [],
      files: [],
    };
  }

  /** The worker's purge of a deleted site, once its deletion date has been moved back 15 days. */
  purge(site: SiteModel): Operation {
    return {
      kind: "purge",
      label: `purge of ${site.subdomain} by the worker`,
      siteId: site.id,
      send: () => Promise.reject(new Error("the worker purges; nothing to send")),
      before: unchanged(site),
      after: { label: "purged", exists: false },
      intermediate: [],
      files: [],
    };
  }

  /** A new site from a zip, as the wizard makes it (the subdomain is reserved first, unkilled). */
  async create(cycle: number): Promise<Operation> {
    const reserved = await this.api.json("POST", "/api/subdomains/reserve");
    if (reserved.status !== 200) throw new Error(`reserve: ${reserved.status} ${reserved.body.toString()}`);
    const { subdomain } = parse<{ subdomain: string }>(reserved);
    const files = [textFile(this.bytes, "index.html", `c${cycle}`, this.bytes.int(500, 5000)), ...this.files(cycle, "", this.bytes.int(20, 120))];
    const zip = await zipOf(this.bytes, this.scratch, files);
    const recorded = this.remember(files);
    const tree = withFiles(new Map(), recorded);
    return {
      kind: "create",
      label: `creation of ${subdomain} (${files.length} files)`,
      siteId: undefined,
      subdomain,
      send: () =>
        this.api.multipart(
          "POST",
          "/api/sites",
          { name: `Site ${cycle}`, subdomain },
          { name: `site-${cycle}.zip`, content: zip, type: "application/zip" },
        ),
      before: { label: "not created", exists: false },
      after: { label: "after", exists: true, tree, live: "new", liveFiles: tree, deleted: false },
      intermediate: [{ label: "created, not published", exists: true, tree, live: "same", liveFiles: new Map(), deleted: false }],
      files: recorded,
    };
  }

  /** A new profile picture (a PNG by its first bytes) replacing `current`. */
  avatar(current: string | null): Operation {
    const png = Buffer.concat([PNG_SIGNATURE, this.bytes.bytes(this.bytes.int(50_000, 1_500_000))]);
    const after = this.contents.remember(png);
    const none: SiteState = { label: "-", exists: true };
    return {
      kind: "avatar",
      label: `picture of ${png.length} bytes`,
      siteId: undefined,
      send: () => this.api.multipart("PUT", "/api/me/avatar", {}, { name: "me.png", content: png, type: "image/png" }),
      before: none,
      after: none,
      intermediate: [],
      files: [],
      avatar: { before: current, after },
    };
  }
}
