/**
 * The `@` completion's ranking over 100,000 paths (lib/frontend/terminal/complete.ts): how long one
 * Tab takes once the list is cached. `deno run scripts/bench/complete.ts`.
 */

import { rankPaths } from "../../lib/frontend/terminal/complete.ts";

const paths: string[] = [];
for (let i = 0; i < 100_000; i++) {
  paths.push(`src/module${i % 300}/part${i % 17}/file_${i}.ts`);
}
paths.push("README.md");
const lower = paths.map((p) => p.toLowerCase());
for (const query of ["REA", "f99", "mod12part3", "zzz"]) {
  const runs = 10;
  const start = performance.now();
  let found = 0;
  for (let i = 0; i < runs; i++) found = rankPaths(query, paths, lower).length;
  const ms = (performance.now() - start) / runs;
  console.log(`${query.padEnd(12)} ${ms.toFixed(1)} ms per Tab (${found} shown)`);
}
