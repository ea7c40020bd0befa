// `npm run docs:settings`: writes the README's settings table from common/settings.ts and its
// metrics table from common/metrics.ts, each between its two marker comments, formatted as
// Prettier formats the rest of the README.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import prettier from "prettier";
import { SETTINGS } from "../common/settings";
import { METRICS, PROCESS_METRICS } from "../common/metrics";

export const README = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "README.md");
const START = "<!-- settings:start: written by npm run docs:settings from common/settings.ts -->";
const END = "<!-- settings:end -->";
const METRICS_START = "<!-- metrics:start: written by npm run docs:settings from common/metrics.ts -->";
const METRICS_END = "<!-- metrics:end -->";

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

/** The metrics, Berth's own and then the process metrics worth a panel, as Markdown. */
export function metricsTable(): string {
  const rows = [...METRICS, ...PROCESS_METRICS].map((metric) => {
    const labels = metric.labels.map((label) => `\`${label}\``).join(", ") || "—";
    return `| \`${metric.name}\` | ${metric.type} | ${labels} | ${cell(metric.help)} | \`${cell(metric.promql)}\`: ${cell(metric.shows)} |`;
  });
  return ["| metric | type | labels | meaning | for example |", "| --- | --- | --- | --- | --- |", ...rows].join("\n");
}

function between(readme: string, start: string, end: string, table: string, what: string): string {
  const from = readme.indexOf(start);
  const to = readme.indexOf(end);
  if (from === -1 || to < from) throw new Error(`README.md needs the markers ${start} and ${end} around the ${what} table`);
  return `${readme.slice(0, from + start.length)}\n\n${table}\n\n${readme.slice(to)}`;
}

/** The README with the tables between the markers replaced by the lists', formatted. */
export async function readmeWithSettings(readme: string): Promise<string> {
  const replaced = between(between(readme, START, END, settingsTable(), "settings"), METRICS_START, METRICS_END, metricsTable(), "metrics");
  const options = await prettier.resolveConfig(README);
  return prettier.format(replaced, { ...options, filepath: README });
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const before = readFileSync(README, "utf8");
  const after = await readmeWithSettings(before);
  if (after !== before) writeFileSync(README, after);
  console.log(after === before ? "README.md: the settings and metrics tables are up to date" : "README.md: settings and metrics tables written");
}
