// A delivery's body, written from its stored payload. jsonb keeps keys in an order of its own, so
// the keys are put back in the documented one (id, type, created_at first); the same row always
// gives the same bytes, so every retry sends (and signs) an identical body.
const ORDER = ["id", "type", "created_at", "site", "deployment", "webhook", "name", "subdomain", "url", "version", "status", "error", "events"];

const rank = (key: string) => {
  const index = ORDER.indexOf(key);
  return index === -1 ? ORDER.length : index;
};

function ordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(ordered);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([key, inner]) => [key, ordered(inner)]));
}

export function webhookBody(payload: unknown): string {
  return JSON.stringify(ordered(payload));
}
