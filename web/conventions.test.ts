// The dashboard does each common thing one way, so a newcomer finds one example to follow and a
// fix lands everywhere at once. Each rule names the one place, and fails with the files that do
// it their own way.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const WEB = import.meta.dirname;

interface Source {
  /** Relative to web/, with forward slashes. */
  file: string;
  text: string;
}

function sources(dir = WEB): Source[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    if (!/\.tsx?$/.test(entry.name)) return [];
    return [{ file: path.relative(WEB, full).split(path.sep).join("/"), text: readFileSync(full, "utf8") }];
  });
}

// Tests and fixtures exercise the one place; they are not second ways of doing it.
const app = sources().filter(({ file }) => !/\.(test|fixture)\.tsx?$/.test(file) && !file.startsWith("test/"));

function offenders(rule: (source: Source) => boolean, allowed: string[]): string[] {
  return app
    .filter((source) => !allowed.includes(source.file) && rule(source))
    .map(({ file }) => file)
    .sort();
}

describe("one way to do each thing", () => {
  it("asks every confirmation with ui/ConfirmDialog, the only user of the alert dialog primitives", () => {
    const buildsAlertDialog = ({ text }: Source) =>
      /from "[^"]*\/(alert-dialog|AlertDialog)"/.test(text) || /import \{[^}]*\bAlertDialog\b[^}]*\} from "radix-ui"/.test(text);
    expect(offenders(buildsAlertDialog, ["components/ui/AlertDialog.tsx", "components/ui/ConfirmDialog.tsx"])).toEqual([]);
  });

  it("shows every failed load with ui/LoadError, the only Try again", () => {
    const ownRetry = ({ text }: Source) => /Try again|\.tryAgain\b/.test(text);
    expect(offenders(ownRetry, ["components/ui/LoadError.tsx"])).toEqual([]);
  });

  it("takes dropped files only through ui/DropZone", () => {
    const ownDropZone = ({ text }: Source) => /\bon(Drop|DragEnter|DragOver)=/.test(text);
    expect(offenders(ownDropZone, ["components/ui/DropZone.tsx"])).toEqual([]);
  });

  it("checks a file before upload only in sites/uploadCheck.ts", () => {
    const ownCheck = ({ text }: Source) => /\bisAllowedUpload\(|UPLOAD_TEXT\.(unsupported|tooLarge)/.test(text);
    expect(offenders(ownCheck, ["components/sites/uploadCheck.ts"])).toEqual([]);
  });

  it("holds every form's fields in react-hook-form, checked by a zod schema", () => {
    // The confirmation dialog's form has no fields of its own; what it holds is its caller's.
    const ownForm = ({ text }: Source) => /<form\b/.test(text) && !/\buseForm\b/.test(text);
    expect(offenders(ownForm, ["components/ui/ConfirmDialog.tsx"])).toEqual([]);
    const unchecked = ({ text }: Source) => /\buseForm</.test(text) && !/\bzodResolver\(/.test(text);
    expect(offenders(unchecked, [])).toEqual([]);
  });

  it("lays out every labelled field with ui/FormField", () => {
    // A hand-made label-control-error group is what FormField is; the Signup page's terms box is
    // a checkbox with its label beside it, which FormField does not draw.
    const ownField = ({ text }: Source) => /<FieldError\b/.test(text);
    expect(offenders(ownField, ["components/ui/FormField.tsx", "routes/auth/Signup.tsx"])).toEqual([]);
  });

  it("names each file by one rule: components PascalCase.tsx, everything else camelCase.ts", () => {
    const all = sources();
    const text = (file: string) => all.find((source) => source.file === file)?.text ?? "";
    const misnamed = all
      .filter(({ file }) => {
        // A test or fixture is named after its subject: ConfirmDialog.fixture.tsx, adminUsers.test.ts.
        const stem = path.basename(file).split(".")[0]!;
        if (!/^[A-Za-z][A-Za-z0-9]*$/.test(stem)) return true;
        const dir = path.dirname(file) === "." ? "" : `${path.dirname(file)}/`;
        // Test code under test/ mirrors components/: test/ui/X.fixture.tsx is about components/ui/X.tsx.
        const dirs = dir.startsWith("test/") ? [dir, `components/${dir.slice("test/".length)}`] : [dir];
        const subject = dirs.map((d) => text(`${d}${stem}.tsx`) || text(`${d}${stem}.ts`)).find(Boolean) ?? "";
        const component = stem[0]!.toUpperCase() + stem.slice(1);
        // A component file exports components; any other file does not export one under its own name.
        return stem === component
          ? !/export (function|const) [A-Z]/.test(subject)
          : new RegExp(`export (function|const) ${component}\\b`).test(subject);
      })
      .map(({ file }) => file);
    expect(misnamed).toEqual([]);
  });
});
