// .berthignore, as .gitignore reads it: one row per case, path → left out or not.
import { describe, expect, it } from "vitest";
import { globToRegex, IgnoreMatcher } from "./ignore";

type Case = [patterns: string, path: string, isDir: boolean, ignored: boolean];

const CASES: Case[] = [
  // A name without "/" matches at any depth, files and folders.
  ["*.log", "debug.log", false, true],
  ["*.log", "logs/deep/debug.log", false, true],
  ["*.log", "debug.log.txt", false, false],
  ["secret.txt", "a/b/secret.txt", false, true],
  ["drafts", "drafts", true, true],
  ["drafts", "blog/drafts", true, true],
  // * and ? never cross a "/".
  ["docs/*.md", "docs/a.md", false, true],
  ["docs/*.md", "docs/sub/a.md", false, false],
  ["file?.txt", "file1.txt", false, true],
  ["file?.txt", "file12.txt", false, false],
  ["a?b", "a/b", false, false],
  // A leading "/" (or any "/" before the end) ties the pattern to the top.
  ["/build", "build", true, true],
  ["/build", "src/build", true, false],
  ["src/build", "src/build", true, true],
  ["src/build", "x/src/build", true, false],
  // A trailing "/" matches folders only.
  ["tmp/", "tmp", true, true],
  ["tmp/", "tmp", false, false],
  ["tmp/", "a/tmp", true, true],
  // ** as a whole part: any number of folders, none included.
  ["**/cache", "cache", true, true],
  ["**/cache", "a/b/cache", true, true],
  ["docs/**/*.psd", "docs/x.psd", false, true],
  ["docs/**/*.psd", "docs/a/b/x.psd", false, true],
  ["docs/**/*.psd", "other/docs/x.psd", false, false],
  ["assets/**", "assets/img/a.png", false, true],
  ["assets/**", "assets", true, false],
  // ** inside a name is a plain *.
  ["a**b", "axxb", false, true],
  ["a**b", "a/b", false, false],
  // The last matching line decides; ! takes a match back.
  ["*.log\n!keep.log", "keep.log", false, false],
  ["*.log\n!keep.log", "other.log", false, true],
  ["!keep.log\n*.log", "keep.log", false, true],
  // A file inside an ignored folder cannot be taken back (the folder is never read).
  ["logs/\n!logs/keep.log", "logs/keep.log", false, true],
  // …but one inside a folder whose contents (not the folder) are ignored can.
  ["logs/*\n!logs/keep.log", "logs/keep.log", false, false],
  ["logs/*\n!logs/keep.log", "logs/drop.log", false, true],
  // Comments, blank lines, escapes, trailing spaces.
  ["# a comment\n\n", "# a comment", false, false],
  ["\\#notes", "#notes", false, true],
  ["\\!important", "!important", false, true],
  ["name.txt   ", "name.txt", false, true],
  ["with\\ ", "with ", false, true],
  // Character classes, which never match "/".
  ["img[0-9].png", "img3.png", false, true],
  ["img[0-9].png", "imgx.png", false, false],
  ["img[!0-9].png", "imgx.png", false, true],
  ["a[/]b", "a/b", false, false],
  // Regex metacharacters are plain characters.
  ["a+b(c).txt", "a+b(c).txt", false, true],
  ["a.b", "axb", false, false],
  // Windows line ends.
  ["*.tmp\r\n*.bak\r\n", "x.bak", false, true],
];

describe(".berthignore", () => {
  it.each(CASES)("%j: %s (folder: %s) is ignored: %s", (patterns, path, isDir, ignored) => {
    expect(new IgnoreMatcher(patterns).ignores(path, isDir)).toBe(ignored);
  });

  it("an empty file ignores nothing", () => {
    expect(new IgnoreMatcher("").ignores("anything/at/all.html", false)).toBe(false);
  });

  it("turns globs into anchored-free fragments that never cross a /", () => {
    expect(new RegExp(`^${globToRegex("*")}$`).test("a/b")).toBe(false);
    expect(new RegExp(`^${globToRegex("**")}$`).test("a/b")).toBe(true);
  });
});
