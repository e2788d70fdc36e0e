/**
 * `deno task compile`: one executable per platform in dist/, with the narrowest permission flags
 * the tools need — never `-A`. (It downloads Deno runtimes, so it cannot run on a closed network.)
 */

/** The platforms mm ships for. */
export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
  "x86_64-pc-windows-msvc",
] as const;

/**
 * The permissions: read and write the working tree (tools), run processes (bash, declared tools,
 * language servers), reach the model server and web pages (provider, fetch_content), read the
 * environment (MM_CONFIG, MM_API_KEY, HOME, XDG_CONFIG_HOME, NO_COLOR).
 */
export const PERMISSIONS = [
  "--allow-read",
  "--allow-write",
  "--allow-run",
  "--allow-net",
  "--allow-env",
] as const;

if (import.meta.main) {
  const only = Deno.args[0];
  for (const target of TARGETS) {
    if (only && only !== target) continue;
    const output = `dist/mm-${target}${target.includes("windows") ? ".exe" : ""}`;
    const args = [
      "compile",
      "--no-config",
      ...PERMISSIONS,
      "--target",
      target,
      "--output",
      output,
      "main.ts",
    ];
    console.log(`deno ${args.join(" ")}`);
    const { code } = await new Deno.Command(Deno.execPath(), {
      args,
      stdout: "inherit",
      stderr: "inherit",
    })
      .output();
    if (code !== 0) Deno.exit(code);
  }
}
