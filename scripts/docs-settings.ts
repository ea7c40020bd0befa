// `npm run docs:settings`: writes the README's settings table from common/settings.ts, between
// its two marker comments, formatted as Prettier formats the rest of the README.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import prettier from "prettier";
import { SETTINGS } from "../common/settings";

export const README = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "README.md");
const START = "<!-- settings:start: written by npm run docs:settings from common/settings.ts -->";
const END = "<!-- settings:end -->";

const cell = (text: string) => text.replaceAll("|", "\\|");

/** The table as Markdown, before Prettier pads its columns. */
export function settingsTable(): string {
  const rows = SETTINGS.map((setting) => {
    const names = setting.names.map((name) => `\`${name}\``).join(", ");
    const meaning = setting.readme ? `${setting.description} (${setting.readme})` : setting.description;
    return `| ${names} | ${cell(meaning)} | ${cell(setting.default)} |`;
  });
  return ["| variable | meaning | default |", "| --- | --- | --- |", ...rows].join("\n");
}

/** The README with the table between the markers replaced by the list's, formatted. */
export async function readmeWithSettings(readme: string): Promise<string> {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  if (start === -1 || end < start) throw new Error(`README.md needs the markers ${START} and ${END} around the settings table`);
  const replaced = `${readme.slice(0, start + START.length)}\n\n${settingsTable()}\n\n${readme.slice(end)}`;
  const options = await prettier.resolveConfig(README);
  return prettier.format(replaced, { ...options, filepath: README });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const before = readFileSync(README, "utf8");
  const after = await readmeWithSettings(before);
  if (after !== before) writeFileSync(README, after);
  console.log(after === before ? "README.md: the settings table is up to date" : "README.md: settings table written");
}
