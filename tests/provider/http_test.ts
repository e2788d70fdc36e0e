/** One request to a model server's side APIs: headers, method, status, JSON, failures as values. */

import { assertEquals } from "../helpers/assert.ts";
import { type Fetch, requestServer, USER_AGENT } from "../../lib/provider/http.ts";
import { VERSION } from "../../lib/version.ts";

/** A fetch that records what it was asked and answers with `answer`. */
function fakeFetch(answer: () => Response | Promise<Response>) {
  const seen: { url: string; method?: string; headers: Record<string, string>; body?: unknown }[] =
    [];
  const fetch: Fetch = async (url, init) => {
    seen.push({
      url,
      method: init.method,
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: init.body,
    });
    return await answer();
  };
  return { fetch, seen };
}

Deno.test("a request to the model server", async (t) => {
  await t.step("GET without a body: User-Agent, no key, the JSON read", async () => {
    const { fetch, seen } = fakeFetch(() => Response.json({ models: [] }));
    const answer = await requestServer({ url: "http://m.test/api/ps", fetch });
    assertEquals(answer, { kind: "ok", status: 200, text: '{"models":[]}', json: { models: [] } });
    assertEquals(USER_AGENT, `mm/${VERSION}`);
    assertEquals(seen, [{
      url: "http://m.test/api/ps",
      method: "GET",
      headers: { "user-agent": `mm/${VERSION}` },
      body: undefined,
    }]);
  });

  await t.step("POST with a body: JSON, and the key as a bearer token", async () => {
    const { fetch, seen } = fakeFetch(() => new Response("not json"));
    const answer = await requestServer({
      url: "http://m.test/api/show",
      apiKey: "sk-1",
      body: { model: "m" },
      fetch,
    });
    assertEquals(answer, { kind: "ok", status: 200, text: "not json", json: undefined });
    assertEquals(seen[0].method, "POST");
    assertEquals(seen[0].body, '{"model":"m"}');
    assertEquals(seen[0].headers.authorization, "Bearer sk-1");
    assertEquals(seen[0].headers["content-type"], "application/json");
  });

  await t.step("an HTTP error: its text, or none when discarded", async () => {
    const { fetch } = fakeFetch(() => new Response("no such model", { status: 404 }));
    assertEquals(await requestServer({ url: "http://m.test/x", fetch }), {
      kind: "http",
      status: 404,
      text: "no such model",
    });
    assertEquals(await requestServer({ url: "http://m.test/x", fetch, discardErrorBody: true }), {
      kind: "http",
      status: 404,
      text: "",
    });
  });

  await t.step("no answer: the error, and whether the timeout ended it", async () => {
    const refused = new TypeError("connection refused");
    const down: Fetch = () => Promise.reject(refused);
    assertEquals(await requestServer({ url: "http://m.test/x", fetch: down }), {
      kind: "failed",
      stage: "request",
      error: refused,
      timedOut: false,
    });
    const silent: Fetch = (_url, init) =>
      new Promise((_resolve, reject) => {
        init.signal?.addEventListener("abort", () => reject(init.signal!.reason));
      });
    const answer = await requestServer({ url: "http://m.test/x", fetch: silent, timeout: 20 });
    assertEquals([answer.kind, answer.kind === "failed" && answer.timedOut], ["failed", true]);
  });

  await t.step("a body that breaks off", async () => {
    const broken = new ReadableStream({
      pull(controller) {
        controller.error(new Error("reset"));
      },
    });
    const { fetch } = fakeFetch(() => new Response(broken));
    const answer = await requestServer({ url: "http://m.test/x", fetch });
    assertEquals(
      [answer.kind, answer.kind === "failed" && answer.stage],
      ["failed", "body"],
    );
  });
});
