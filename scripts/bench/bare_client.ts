/**
 * The floor mm is compared with: the same HTTP exchanges, with nothing around them.
 *
 * `deno run -A bare_client.ts URL MODEL REQUESTS.json` replays the chat requests in REQUESTS.json
 * (a list of `{ path, body }`, as mm sent them) to the server at URL with `model` set to MODEL,
 * reads each SSE body to its end, and runs `bash -c true` between two requests, as a turn whose
 * every step is one `true` would.
 */

const [url, model, file] = Deno.args;
const requests: { path: string; body: Record<string, unknown> }[] = JSON.parse(
  await Deno.readTextFile(file),
);
for (const [i, { path, body }] of requests.entries()) {
  const response = await fetch(url + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...body, model }),
  });
  await response.text();
  if (i < requests.length - 1) {
    await new Deno.Command("bash", { args: ["-c", "true"], stdout: "null", stderr: "null" })
      .output();
  }
}
