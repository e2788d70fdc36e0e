/**
 * The real llama-server exchanges of tests/fixtures/llama-server/ (captured from llama.cpp's
 * server, see its README): each answered again exactly, its status, headers and body bytes.
 */

import { fileURLToPath } from "node:url";

const DIR = fileURLToPath(new URL("../../fixtures/llama-server/", import.meta.url));

/** The names of the fixtures (their file names without `.http`). */
export type FixtureName =
  | "apply-template-reasoning-dropped"
  | "apply-template-reasoning-kept"
  | "broken-call-in-history"
  | "exceed-context"
  | "in-stream-error"
  | "no-jinja-tools"
  | "response-format-with-tools"
  | "router-chat-right-after-unload"
  | "router-props-model"
  | "router-unknown-model"
  | "router-unload"
  | "router-v1-models-after-unload"
  | "router-v1-models"
  | "single-models"
  | "single-props"
  | "single-unload-404"
  | "single-v1-models"
  | "stream-length"
  | "stream-text"
  | "stream-tool-call"
  | "think-stream";

/** A captured response: what the server sent. */
export interface Captured {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
}

/** The request body fixture `name` records (its `# request body:` line), parsed. */
// deno-lint-ignore no-explicit-any
export function capturedRequest(name: FixtureName): any {
  const text = Deno.readTextFileSync(`${DIR}${name}.http`);
  const line = text.split("\n").find((l) => l.startsWith("# request body: "));
  return line ? JSON.parse(line.slice("# request body: ".length)) : undefined;
}

/** Headers the test server's own HTTP stack writes (lengths and framing), left out of a replay. */
const FRAMING = new Set(["content-length", "transfer-encoding", "connection", "keep-alive"]);

/** The response captured in fixture `name`. */
export function captured(name: FixtureName): Captured {
  const text = Deno.readTextFileSync(`${DIR}${name}.http`);
  const start = text.indexOf("\nHTTP/1.1 ") + 1;
  const response = text.slice(start);
  const headEnd = response.indexOf("\n\n");
  const [statusLine, ...headerLines] = response.slice(0, headEnd).split("\n");
  const [, code, ...reason] = statusLine.split(" ");
  const headers = headerLines.map((l): [string, string] => {
    const i = l.indexOf(":");
    return [l.slice(0, i), l.slice(i + 1).trim()];
  });
  return {
    status: Number(code),
    statusText: reason.join(" "),
    headers,
    body: response.slice(headEnd + 2),
  };
}

/** Fixture `name` answered as llama-server answered it (the framing headers aside). */
export function fixtureResponse(name: FixtureName): Response {
  const c = captured(name);
  const headers = new Headers();
  for (const [k, v] of c.headers) if (!FRAMING.has(k.toLowerCase())) headers.append(k, v);
  return new Response(c.status === 204 ? null : c.body, {
    status: c.status,
    statusText: c.statusText,
    headers,
  });
}
