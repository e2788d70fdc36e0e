/** Durations as the agent file writes them: `30s`, `2m`, `1500ms`, `1h`, `1m30s`. */

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Parses `30s`, `2m`, `1500ms`, `1m30s` or `1.5s` into milliseconds; undefined when malformed. */
export function parseDuration(text: string): number | undefined {
  const s = text.trim();
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(s)) return undefined;
  let total = 0;
  for (const [, num, , unit] of s.matchAll(/(\d+(\.\d+)?)(ms|s|m|h)/g)) {
    total += Number(num) * UNITS[unit];
  }
  return Math.round(total);
}

/** Writes milliseconds the way a person would type them: `30s`, `2m`, `1m30s`, `1500ms`. */
export function formatDuration(ms: number): string {
  if (ms <= 0) return "0s";
  if (ms % 1000 !== 0) return ms < 60_000 ? `${ms}ms` : `${(ms / 1000).toString()}s`;
  let s = ms / 1000;
  const h = Math.floor(s / 3600);
  s -= h * 3600;
  const m = Math.floor(s / 60);
  s -= m * 60;
  return `${h ? `${h}h` : ""}${m ? `${m}m` : ""}${s ? `${s}s` : ""}`;
}
