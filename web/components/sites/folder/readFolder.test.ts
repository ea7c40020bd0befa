// The folder walk over fake FileSystemEntry trees (a drop) and fake picker lists, as Chromium hands
// them over: readEntries in batches of at most 100, paths under the chosen folder for the picker.
import { describe, expect, it } from "vitest";
import { DEPLOY_MAX_FILES } from "../../../../common/deploys";
import { FOLDER_TEXT, UPLOAD_TEXT } from "../../../../common/uploads";
import { FolderProblem, readFolder, type EntryLike, type FolderSource, type ReadOptions } from "./readFolder";

type Tree = { [name: string]: string | Tree };

/** A drop's entries for a tree: folders answer readEntries 100 at a time, then an empty batch; `calls` counts them. */
function entriesOf(tree: Tree, calls = { readEntries: 0 }): EntryLike[] {
  return Object.entries(tree).map(([name, value]): EntryLike => {
    if (typeof value === "string") {
      const file = new File([value], name);
      return { name, isFile: true, isDirectory: false, file: (resolve: (file: File) => void) => setTimeout(resolve, 0, file) } as EntryLike;
    }
    const children = entriesOf(value, calls);
    return {
      name,
      isFile: false,
      isDirectory: true,
      createReader: () => {
        let at = 0;
        return {
          readEntries(resolve: (entries: EntryLike[]) => void) {
            calls.readEntries += 1;
            const batch = children.slice(at, at + 100);
            at += batch.length;
            setTimeout(resolve, 0, batch);
          },
        };
      },
    } as EntryLike;
  });
}

/** The picker's list for a tree chosen as the folder `root`: every file, at any depth, with its webkitRelativePath. */
function pickerOf(root: string, tree: Tree, prefix = root): File[] {
  return Object.entries(tree).flatMap(([name, value]) => {
    const path = `${prefix}/${name}`;
    if (typeof value !== "string") return pickerOf(root, value, path);
    const file = new File([value], name);
    Object.defineProperty(file, "webkitRelativePath", { value: path });
    return [file];
  });
}

const WIZARD: ReadOptions = { into: null, keepFolderName: false, maxFileBytes: 50 * 1024 * 1024 };
const FILES_TAB: ReadOptions = { into: "docs", keepFolderName: true, maxFileBytes: 50 * 1024 * 1024 };

const SITE: Tree = {
  "index.html": "<h1>home</h1>",
  ".env": "SECRET=1",
  ".git": { config: "[core]", objects: { ab: "x" } },
  ".well-known": { "security.txt": "Contact: x" },
  css: { "site.css": "body{}", ".hidden.css": "x" },
  docs: { ".well-known": { "nope.txt": "x" }, "guide.html": "<p>guide</p>" },
  _redirects: "/a /b",
};

const paths = (folder: { files: { path: string }[] }) => folder.files.map((f) => f.path);

async function problemOf(source: FolderSource, options: ReadOptions): Promise<FolderProblem> {
  const error = await readFolder(source, options).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof FolderProblem)) throw new Error(`expected a FolderProblem, got ${String(error)}`);
  return error;
}

describe("a dropped folder", () => {
  it("in the wizard is the site: its contents at the top, dot-names left out but .well-known at the top", async () => {
    const folder = await readFolder({ kind: "entries", entries: entriesOf({ mysite: SITE }) }, WIZARD);
    expect(folder.name).toBe("mysite");
    expect(paths(folder)).toEqual([".well-known/security.txt", "_redirects", "css/site.css", "docs/guide.html", "index.html"]);
    expect(folder.leftOut).toEqual([".env", ".git", "css/.hidden.css", "docs/.well-known"]);
    expect(folder.size).toBe(folder.files.reduce((sum, f) => sum + f.file.size, 0));
    expect(await folder.files.find((f) => f.path === "css/site.css")!.file.text()).toBe("body{}");
  });

  it("in the Files tab lands under the folder shown, with its own name, where no .well-known is at the top", async () => {
    const folder = await readFolder({ kind: "entries", entries: entriesOf({ mysite: SITE }) }, FILES_TAB);
    expect(paths(folder)).toEqual(["docs/mysite/_redirects", "docs/mysite/css/site.css", "docs/mysite/docs/guide.html", "docs/mysite/index.html"]);
    expect(folder.leftOut).toContain("docs/mysite/.well-known");
    const atTop = await readFolder(
      { kind: "entries", entries: entriesOf({ ".well-known": { "a.txt": "x" }, ".git": { b: "y" } }) },
      { ...FILES_TAB, into: null },
    );
    expect(paths(atTop)).toEqual([".well-known/a.txt"]);
    expect(atTop.leftOut).toEqual([".git"]);
  });

  it("keeps the folders that hold nothing once dot-names are left out, in the wizard and in the Files tab", async () => {
    const tree: Tree = {
      "index.html": "x",
      images: {},
      docs: { empty: {}, "guide.html": "g", drafts: { ".DS_Store": "z", ".git": { a: "b" } } },
      ".cache": { nothing: {} },
    };
    const wizard = await readFolder({ kind: "entries", entries: entriesOf({ mysite: tree }) }, WIZARD);
    expect(wizard.folders).toEqual(["docs/drafts", "docs/empty", "images"]);
    expect(paths(wizard)).toEqual(["docs/guide.html", "index.html"]);
    const filesTab = await readFolder({ kind: "entries", entries: entriesOf({ mysite: tree, blank: {} }) }, FILES_TAB);
    expect(filesTab.folders).toEqual(["docs/blank", "docs/mysite/docs/drafts", "docs/mysite/docs/empty", "docs/mysite/images"]);
    // The picker lists files only: it has no empty folders to give.
    expect((await readFolder({ kind: "picker", files: pickerOf("mysite", tree) }, WIZARD)).folders).toEqual([]);
  });

  it("reads folders of more than 100 entries whole, calling readEntries until it answers nothing", async () => {
    const big: Tree = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`page-${String(i).padStart(3, "0")}.html`, `<p>${i}</p>`]));
    const calls = { readEntries: 0 };
    const folder = await readFolder({ kind: "entries", entries: entriesOf({ site: { big, "index.html": "x" } }, calls) }, WIZARD);
    expect(folder.files).toHaveLength(251);
    expect(new Set(paths(folder)).size).toBe(251);
    // site: 2 entries, then empty (2 calls); big: 100, 100, 50, then empty (4 calls).
    expect(calls.readEntries).toBe(6);
  });

  it("takes several dropped things as they are, at the top, with no name of their own", async () => {
    const folder = await readFolder({ kind: "entries", entries: entriesOf({ "index.html": "x", css: { "a.css": "y" }, ".DS_Store": "z" }) }, WIZARD);
    expect(folder.name).toBeNull();
    expect(paths(folder)).toEqual(["css/a.css", "index.html"]);
    expect(folder.leftOut).toEqual([".DS_Store"]);
  });

  it("refuses a folder with nothing to publish, one with too many files, a bad name and a file over the plan", async () => {
    expect((await problemOf({ kind: "entries", entries: entriesOf({ empty: { ".git": { a: "b" }, sub: {} } }) }, WIZARD)).title).toBe(
      FOLDER_TEXT.emptyTitle,
    );

    const tooLarge = await problemOf(
      { kind: "entries", entries: entriesOf({ site: { "big.bin": "x".repeat(11) } }) },
      { ...WIZARD, maxFileBytes: 10 },
    );
    expect(tooLarge.title).toBe(UPLOAD_TEXT.tooLargeTitle);
    expect(tooLarge.description).toMatch(/^big\.bin is 11 bytes; the largest file your plan allows is/);

    const badName = await problemOf({ kind: "entries", entries: entriesOf({ site: { "a\u0001b.html": "x" } }) }, WIZARD);
    expect([badName.title, badName.description]).toEqual([FOLDER_TEXT.badNameTitle, "The path contains a control character: a\u0001b.html"]);

    // Composed and decomposed é are one name on the site.
    const twice = await problemOf({ kind: "entries", entries: entriesOf({ site: { "caf\u00e9.html": "x", "cafe\u0301.html": "y" } }) }, WIZARD);
    expect(twice.description).toBe("The manifest lists caf\u00e9.html twice");
  });

  it("stops reading at one file more than a deploy may hold", async () => {
    const files = Array.from({ length: DEPLOY_MAX_FILES + 1 }, (_, i) => {
      const file = new File([], `f${i}.txt`);
      Object.defineProperty(file, "webkitRelativePath", { value: `site/f${i}.txt` });
      return file;
    });
    const problem = await problemOf({ kind: "picker", files }, WIZARD);
    expect([problem.title, problem.description]).toEqual([FOLDER_TEXT.tooManyTitle, FOLDER_TEXT.tooManyDescription(DEPLOY_MAX_FILES)]);
  });
});

describe("a folder from the picker", () => {
  it("gives the same files as the same folder dropped, in both places", async () => {
    for (const options of [WIZARD, FILES_TAB]) {
      const dropped = await readFolder({ kind: "entries", entries: entriesOf({ mysite: SITE }) }, options);
      const picked = await readFolder({ kind: "picker", files: pickerOf("mysite", SITE) }, options);
      expect(picked.name).toBe("mysite");
      expect(paths(picked)).toEqual(paths(dropped));
      expect(picked.leftOut).toEqual(dropped.leftOut);
      expect(picked.size).toBe(dropped.size);
    }
  });
});
