// .berthignore: which files of the deployed folder stay behind, in .gitignore's syntax.
//   # comment            a line starting with # (\# for a name that starts with one)
//   *.log                a name anywhere: * is any run of characters but "/", ? one character
//   /drafts              a leading "/" (or any "/" before the end) ties a pattern to the folder's top
//   build/               a trailing "/" matches folders only
//   docs/**/*.psd        ** as a whole path part: any number of folders (none too)
//   !keep.log            "!" takes a match back; the last matching line decides
// As in git, a file inside an ignored folder cannot be taken back: the folder is never read.

interface Rule {
  regex: RegExp;
  negate: boolean;
  dirOnly: boolean;
}

export class IgnoreMatcher {
  private readonly rules: Rule[];

  constructor(text: string) {
    this.rules = text.split(/\r?\n/).flatMap((line) => {
      const rule = parseLine(line);
      return rule ? [rule] : [];
    });
  }

  /** Whether `relativePath` ("a/b.txt", "/"-separated, no leading slash) is left out, a folder itself or inside an ignored one. */
  ignores(relativePath: string, isDir: boolean): boolean {
    const parts = relativePath.split("/");
    for (let depth = 1; depth < parts.length; depth++) {
      if (this.matches(parts.slice(0, depth).join("/"), true)) return true;
    }
    return this.matches(relativePath, isDir);
  }

  /** The last rule that matches this path decides, ignoring its ancestors (the walk checks those as it descends). */
  matches(relativePath: string, isDir: boolean): boolean {
    let ignored = false;
    for (const rule of this.rules) {
      if (rule.dirOnly && !isDir) continue;
      if (rule.regex.test(relativePath)) ignored = !rule.negate;
    }
    return ignored;
  }
}

function parseLine(raw: string): Rule | undefined {
  // Trailing spaces do not count, unless escaped with a backslash.
  let line = raw.replace(/(?<!\\)\s+$/, "");
  if (line === "" || line.startsWith("#")) return undefined;
  let negate = false;
  if (line.startsWith("!")) {
    negate = true;
    line = line.slice(1);
  }
  let dirOnly = false;
  if (line.endsWith("/")) {
    dirOnly = true;
    line = line.replace(/\/+$/, "");
  }
  const anchored = line.includes("/");
  line = line.replace(/^\/+/, "");
  if (line === "") return undefined;
  const body = globToRegex(line);
  return { regex: new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`), negate, dirOnly };
}

/** A glob as a regular expression's source, "/" matched only by "/" and by ** as a whole part. */
export function globToRegex(glob: string): string {
  let out = "";
  let i = 0;
  while (i < glob.length) {
    const char = glob[i]!;
    if (char === "*") {
      let run = 0;
      while (glob[i + run] === "*") run++;
      const wholePart = run === 2 && (i === 0 || glob[i - 1] === "/") && (i + 2 === glob.length || glob[i + 2] === "/");
      if (wholePart && i + 2 === glob.length) {
        out += ".*";
        i += 2;
      } else if (wholePart) {
        out += "(?:[^/]*/)*";
        i += 3;
      } else {
        out += "[^/]*";
        i += run;
      }
      continue;
    }
    if (char === "?") {
      out += "[^/]";
      i++;
      continue;
    }
    if (char === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end !== -1) {
        let members = glob.slice(i + 1, end);
        const negated = members.startsWith("!") || members.startsWith("^");
        if (negated) members = members.slice(1);
        members = members.replace(/[\\\]^]/g, "\\$&");
        out += negated ? `[^/${members}]` : `(?!/)[${members}]`;
        i = end + 1;
        continue;
      }
    }
    if (char === "\\" && i + 1 < glob.length) {
      out += escapeRegex(glob[i + 1]!);
      i += 2;
      continue;
    }
    out += escapeRegex(char);
    i++;
  }
  return out;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
