// A strict reader of Prometheus' text exposition format (version 0.0.4), for tests: it throws on
// anything a Prometheus server would refuse (a malformed line, a sample before its family's TYPE,
// a family declared twice, a repeated series, a histogram whose buckets do not add up), and gives
// back the families so tests can read values.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: string;
  help: string | undefined;
  samples: Sample[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

/** As Prometheus reads values (Go's ParseFloat): NaN and Inf in any case, Inf with or without a sign. */
function parseValue(text: string, line: string): number {
  if (/^\+?inf(inity)?$/i.test(text)) return Infinity;
  if (/^-inf(inity)?$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`not a value: ${JSON.stringify(line)}`);
  return Number(text);
}

/** `{a="x",b="y\"z"}` from `start` (at the brace); returns the labels and the index after the closing brace. */
function parseLabels(line: string, start: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = start + 1;
  for (;;) {
    if (line[i] === "}") return { labels, end: i + 1 };
    const eq = line.indexOf("=", i);
    const name = line.slice(i, eq);
    if (eq === -1 || !LABEL_NAME.test(name) || line[eq + 1] !== '"') throw new Error(`bad label in ${JSON.stringify(line)}`);
    if (name in labels) throw new Error(`label ${name} twice in ${JSON.stringify(line)}`);
    let value = "";
    let j = eq + 2;
    for (; j < line.length && line[j] !== '"'; j++) {
      if (line[j] === "\\") {
        const next = line[++j];
        if (next === "n") value += "\n";
        else if (next === "\\" || next === '"') value += next;
        else throw new Error(`bad escape in ${JSON.stringify(line)}`);
      } else value += line[j];
    }
    if (j >= line.length) throw new Error(`unterminated label value in ${JSON.stringify(line)}`);
    labels[name] = value;
    i = j + 1;
    if (line[i] === ",") i++;
    else if (line[i] !== "}") throw new Error(`expected , or } in ${JSON.stringify(line)}`);
  }
}

/** The family a sample name belongs to: a histogram's _bucket, _sum and _count are its own. */
function familyOf(families: Map<string, Family>, name: string): Family | undefined {
  const direct = families.get(name);
  if (direct) return direct;
  const base = name.replace(/_(bucket|sum|count)$/, "");
  const family = families.get(base);
  return family && (family.type === "histogram" || family.type === "summary") ? family : undefined;
}

export function parsePrometheusText(text: string): Map<string, Family> {
  if (!text.endsWith("\n")) throw new Error("the exposition must end with a line feed");
  const families = new Map<string, Family>();
  const helps = new Map<string, string>();
  const seen = new Set<string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    if (line.startsWith("#")) {
      const match = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!match) {
        if (/^# (HELP|TYPE)/.test(line)) throw new Error(`malformed comment: ${JSON.stringify(line)}`);
        continue;
      }
      const [, kind, name, rest] = match as unknown as [string, string, string, string];
      if (!NAME.test(name)) throw new Error(`bad metric name: ${JSON.stringify(line)}`);
      if (kind === "HELP") {
        if (helps.has(name)) throw new Error(`HELP twice for ${name}`);
        helps.set(name, rest);
        const family = families.get(name);
        if (family) family.help = rest;
      } else {
        if (!TYPES.has(rest)) throw new Error(`unknown type: ${JSON.stringify(line)}`);
        if (families.has(name)) throw new Error(`TYPE twice for ${name}`);
        families.set(name, { name, type: rest, help: helps.get(name), samples: [] });
      }
      continue;
    }
    const nameEnd = line.search(/[{ ]/);
    const name = line.slice(0, nameEnd);
    if (nameEnd <= 0 || !NAME.test(name)) throw new Error(`bad sample: ${JSON.stringify(line)}`);
    let labels: Record<string, string> = {};
    let rest = line.slice(nameEnd);
    if (line[nameEnd] === "{") {
      const parsed = parseLabels(line, nameEnd);
      labels = parsed.labels;
      rest = line.slice(parsed.end);
    }
    const fields = rest.trim().split(/ +/);
    if (!rest.startsWith(" ") || fields.length < 1 || fields.length > 2) throw new Error(`bad sample: ${JSON.stringify(line)}`);
    const value = parseValue(fields[0]!, line);
    if (fields[1] !== undefined && !/^-?\d+$/.test(fields[1])) throw new Error(`bad timestamp: ${JSON.stringify(line)}`);
    const family = familyOf(families, name);
    if (!family) throw new Error(`sample before its TYPE: ${JSON.stringify(line)}`);
    const key = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seen.has(key)) throw new Error(`series twice: ${JSON.stringify(line)}`);
    seen.add(key);
    family.samples.push({ name, labels, value });
  }
  for (const family of families.values()) if (family.type === "histogram") checkHistogram(family);
  return families;
}

/** Per series, buckets rise with `le` and never fall, and the +Inf bucket is the count. */
function checkHistogram(family: Family): void {
  const series = new Map<string, { buckets: [number, number][]; count?: number; sum?: number }>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const entry = series.get(key) ?? { buckets: [] };
    series.set(key, entry);
    if (sample.name.endsWith("_bucket")) {
      if (le === undefined) throw new Error(`${sample.name} without le`);
      entry.buckets.push([parseValue(le, le), sample.value]);
    } else if (sample.name.endsWith("_count")) entry.count = sample.value;
    else if (sample.name.endsWith("_sum")) entry.sum = sample.value;
  }
  for (const [key, { buckets, count, sum }] of series) {
    if (count === undefined || sum === undefined) throw new Error(`${family.name}${key}: no _count or _sum`);
    for (let i = 1; i < buckets.length; i++) {
      if (buckets[i]![0] <= buckets[i - 1]![0] || buckets[i]![1] < buckets[i - 1]![1]) throw new Error(`${family.name}${key}: buckets out of order`);
    }
    const last = buckets.at(-1);
    if (!last || last[0] !== Infinity || last[1] !== count) throw new Error(`${family.name}${key}: the +Inf bucket is not the count`);
  }
}

/** The value of the one sample named `name` with these labels (others may exist), or undefined. */
export function sampleValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  const family = familyOf(families, name);
  return family?.samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
}
