import { assertEquals } from "../helpers/assert.ts";
import {
  type FetchOutcome,
  fetchPage,
  type FetchPageOptions,
  MAX_PAGE_BYTES,
  USER_AGENT,
} from "../../lib/webmd/fetch.ts";
import { RobotsCache } from "../../lib/webmd/robots.ts";
import { VERSION } from "../../lib/version.ts";

/** What /robots.txt answers; each step sets its own. */
interface RobotsAnswer {
  status?: number;
  body?: string;
  /** Send nothing until the client goes away. */
  hang?: boolean;
  /** Answer with a redirection to this path. */
  location?: string;
}

let robots: RobotsAnswer = { status: 404 };
const seen: { path: string; agent: string | null }[] = [];
const release = new AbortController();
const encoder = new TextEncoder();
const PAGE = "<!DOCTYPE html><title>t</title><p>Hello</p>";

/** Answers only when the server stops: the client gives up before. */
function hang(): Promise<Response> {
  return new Promise((resolve) => {
    release.signal.addEventListener("abort", () => resolve(new Response("gone", { status: 503 })));
  });
}

/** A body of `chunk` repeated `count` times (for ever when count is Infinity), made on demand. */
function stream(chunk: Uint8Array, count: number, gap = 0): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      if (sent >= count || release.signal.aborted) return controller.close();
      if (gap) await new Promise((r) => setTimeout(r, gap));
      sent++;
      controller.enqueue(chunk);
    },
  });
}

const html = { "content-type": "text/html; charset=utf-8" };

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
  const path = new URL(req.url).pathname;
  seen.push({ path, agent: req.headers.get("user-agent") });
  if (path === "/robots.txt") {
    if (robots.hang) return hang();
    if (robots.location) {
      return new Response(null, { status: 301, headers: { location: robots.location } });
    }
    return new Response(robots.body ?? "", { status: robots.status ?? 200 });
  }
  const hop = path.match(/^\/hop\/(\d+)$/);
  if (hop) {
    const n = Number(hop[1]);
    return new Response(null, {
      status: 302,
      headers: { location: n === 0 ? "/page" : `/hop/${n - 1}` },
    });
  }
  switch (path) {
    case "/page":
    case "/private":
    case "/moved-robots.txt":
      return new Response(path === "/moved-robots.txt" ? "User-agent: *\nDisallow: /" : PAGE, {
        headers: html,
      });
    case "/go-private":
      return new Response(null, { status: 301, headers: { location: "/private" } });
    case "/to-ftp":
      return new Response(null, { status: 307, headers: { location: "ftp://example.com/x" } });
    case "/no-location":
      return new Response("moved", { status: 302 });
    case "/missing":
      return new Response("no", { status: 404, headers: html });
    case "/broken":
      return new Response("oops", { status: 500, headers: html });
    case "/pdf":
      return new Response(encoder.encode("%PDF-1.7"), {
        headers: { "content-type": "application/pdf" },
      });
    case "/plain":
      return new Response("just text");
    case "/xhtml":
      return new Response(PAGE, { headers: { "content-type": "application/xhtml+xml" } });
    case "/untyped-html":
      return new Response(encoder.encode("\n  <html><p>sniffed</p></html>"));
    case "/untyped-binary":
      return new Response(Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0, 0, 1));
    case "/endless":
      return new Response(stream(encoder.encode("<p>" + "x".repeat(65_532) + "</p>"), Infinity), {
        headers: html,
      });
    case "/exactly-limit":
      return new Response(stream(new Uint8Array(1024).fill(0x61), MAX_PAGE_BYTES / 1024), {
        headers: html,
      });
    case "/declared-large":
      return new Response(stream(new Uint8Array(1024).fill(0x61), 6 * 1024), {
        headers: { ...html, "content-length": String(6 * 1024 * 1024) },
      });
    case "/silent":
      return hang();
    case "/trickle":
      return new Response(stream(encoder.encode("<p>drop</p>"), 5, 40), { headers: html });
    default:
      return new Response("not found", { status: 404 });
  }
});
const origin = `http://127.0.0.1:${server.addr.port}`;

/** Fetches `path` with a fresh robots.txt cache unless one is given. */
function get(path: string, options: Partial<FetchPageOptions> = {}): Promise<FetchOutcome> {
  return fetchPage(new URL(path, origin), {
    http: { fetch },
    robots: new RobotsCache(),
    ...options,
  });
}

/** The outcome without its bytes, for one assertion. */
async function outcome(path: string, options: Partial<FetchPageOptions> = {}) {
  const result = await get(path, options);
  if (!result.ok) return result;
  return { ...result, bytes: new TextDecoder().decode(result.bytes) };
}

Deno.test("fetching a page", async (t) => {
  await t.step("GET with User-Agent: mm/<version>, robots.txt first", async () => {
    robots = { status: 404 };
    seen.length = 0;
    assertEquals(await outcome("/page"), {
      ok: true,
      url: `${origin}/page`,
      contentType: "text/html; charset=utf-8",
      bytes: PAGE,
    });
    assertEquals(USER_AGENT, `mm/${VERSION}`);
    assertEquals(seen, [
      { path: "/robots.txt", agent: `mm/${VERSION}` },
      { path: "/page", agent: `mm/${VERSION}` },
    ]);
  });

  await t.step("10 redirections are followed; the final URL is reported", async () => {
    robots = { status: 404 };
    const result = await get("/hop/9");
    assertEquals([result.ok, result.ok && result.url], [true, `${origin}/page`]);
  });

  await t.step("more than 10 redirections", async () => {
    robots = { status: 404 };
    assertEquals(await outcome("/hop/10"), {
      ok: false,
      code: 2,
      reason: `more than 10 redirections (the next one was to ${origin}/page)`,
    });
  });

  await t.step("every redirection target is checked against robots.txt", async () => {
    robots = { body: "User-agent: *\nDisallow: /private\n" };
    assertEquals(await outcome("/go-private"), {
      ok: false,
      code: 2,
      reason: `${origin}/robots.txt does not allow mm to fetch ${origin}/private`,
    });
  });

  await t.step("robots.txt: mm's group, else *", async () => {
    robots = { body: "User-agent: *\nDisallow: /\n\nUser-agent: mm\nAllow: /page\nDisallow: /\n" };
    assertEquals((await get("/page")).ok, true);
    assertEquals((await get("/private")).ok, false);
  });

  await t.step("robots.txt: a 4xx allows everything", async () => {
    for (const status of [401, 403, 404, 410, 429]) {
      robots = { status, body: "User-agent: *\nDisallow: /\n" };
      assertEquals((await get("/page")).ok, true, String(status));
    }
  });

  await t.step("robots.txt: a 5xx forbids everything", async () => {
    robots = { status: 503 };
    assertEquals(await outcome("/page"), {
      ok: false,
      code: 2,
      reason:
        `${origin}/robots.txt cannot be read (HTTP 503 Service Unavailable), so no page of this site may be fetched`,
    });
  });

  await t.step("robots.txt: no answer forbids everything", async () => {
    robots = { hang: true };
    assertEquals(await outcome("/page", { robotsTimeout: 100 }), {
      ok: false,
      code: 2,
      reason:
        `${origin}/robots.txt cannot be read (no answer within 100ms), so no page of this site may be fetched`,
    });
  });

  await t.step("robots.txt: its redirection is followed", async () => {
    robots = { location: "/moved-robots.txt" };
    assertEquals((await get("/page")).ok, false);
  });

  await t.step("robots.txt is cached 24 hours per origin", async () => {
    robots = { status: 404 };
    let now = 0;
    const cache = new RobotsCache({ now: () => now });
    seen.length = 0;
    await get("/page", { robots: cache });
    await get("/page", { robots: cache });
    now += 24 * 60 * 60 * 1000;
    await get("/page", { robots: cache });
    assertEquals(seen.filter((s) => s.path === "/robots.txt").length, 2);
  });

  await t.step("a failed robots.txt is asked again next time", async () => {
    const cache = new RobotsCache();
    robots = { status: 500 };
    assertEquals((await get("/page", { robots: cache })).ok, false);
    robots = { status: 404 };
    assertEquals((await get("/page", { robots: cache })).ok, true);
  });

  await t.step("an HTTP status of 300 or more after the redirections", async () => {
    robots = { status: 404 };
    assertEquals(await outcome("/missing"), {
      ok: false,
      code: 2,
      reason: `${origin}/missing answered HTTP 404 Not Found`,
    });
    assertEquals(await outcome("/broken"), {
      ok: false,
      code: 2,
      reason: `${origin}/broken answered HTTP 500 Internal Server Error`,
    });
    assertEquals(await outcome("/no-location"), {
      ok: false,
      code: 2,
      reason: `${origin}/no-location answered HTTP 302 Found`,
    });
  });

  await t.step("a redirection to another scheme", async () => {
    robots = { status: 404 };
    assertEquals(await outcome("/to-ftp"), {
      ok: false,
      code: 2,
      reason:
        `${origin}/to-ftp redirects to ftp://example.com/x, which is not an http or https URL`,
    });
  });

  await t.step("accepted types; other types refused", async () => {
    robots = { status: 404 };
    assertEquals((await get("/xhtml")).ok, true);
    assertEquals(await outcome("/pdf"), {
      ok: false,
      code: 1,
      reason: `${origin}/pdf is not an HTML page (Content-Type: application/pdf)`,
    });
    assertEquals(await outcome("/plain"), {
      ok: false,
      code: 1,
      reason: `${origin}/plain is not an HTML page (Content-Type: text/plain;charset=UTF-8)`,
    });
  });

  await t.step("no Content-Type: sniffed", async () => {
    robots = { status: 404 };
    assertEquals(await outcome("/untyped-html"), {
      ok: true,
      url: `${origin}/untyped-html`,
      contentType: null,
      bytes: "\n  <html><p>sniffed</p></html>",
    });
    assertEquals(await outcome("/untyped-binary"), {
      ok: false,
      code: 1,
      reason:
        `${origin}/untyped-binary is not an HTML page (no Content-Type, and the content does not look like HTML)`,
    });
  });

  await t.step("above 5 MiB: refused while reading, never read whole", async () => {
    robots = { status: 404 };
    assertEquals(await outcome("/endless"), {
      ok: false,
      code: 1,
      reason: `${origin}/endless is larger than 5 MiB`,
    });
    assertEquals(await outcome("/declared-large"), {
      ok: false,
      code: 1,
      reason: `${origin}/declared-large is larger than 5 MiB`,
    });
    const exact = await get("/exactly-limit");
    assertEquals([exact.ok, exact.ok && exact.bytes.length], [true, MAX_PAGE_BYTES]);
  });

  await t.step("a slow but complete answer is read", async () => {
    robots = { status: 404 };
    const result = await outcome("/trickle", { timeout: 5_000 });
    assertEquals(result.ok && result.bytes, "<p>drop</p>".repeat(5));
  });

  await t.step("one deadline for the whole fetch", async () => {
    robots = { status: 404 };
    assertEquals(await outcome("/silent", { timeout: 200 }), {
      ok: false,
      code: 2,
      reason: `${origin}/silent did not answer in full within 200ms`,
    });
    assertEquals(await outcome("/trickle", { timeout: 100 }), {
      ok: false,
      code: 2,
      reason: `${origin}/trickle did not answer in full within 100ms`,
    });
  });

  await t.step("the caller's cancellation", async () => {
    robots = { status: 404 };
    const controller = new AbortController();
    const pending = outcome("/silent", { signal: controller.signal });
    controller.abort();
    assertEquals(await pending, { ok: false, code: 2, reason: "cancelled" });
  });

  await t.step("an unreachable host", async () => {
    const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (closed.addr as Deno.NetAddr).port;
    closed.close();
    assertEquals(
      await fetchPage(new URL(`http://127.0.0.1:${port}/`), {
        http: { fetch },
        robots: new RobotsCache(),
      }),
      {
        ok: false,
        code: 2,
        reason:
          `http://127.0.0.1:${port}/robots.txt cannot be read (connection refused), so no page of this site may be fetched`,
      },
    );
  });

  await t.step("an unreachable host once robots.txt is known", async () => {
    const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (closed.addr as Deno.NetAddr).port;
    closed.close();
    const cache = new RobotsCache();
    cache.set(`http://127.0.0.1:${port}`, { kind: "allowAll", status: 404 });
    assertEquals(
      await fetchPage(new URL(`http://127.0.0.1:${port}/`), { http: { fetch }, robots: cache }),
      { ok: false, code: 2, reason: `cannot reach 127.0.0.1:${port}: connection refused` },
    );
  });

  release.abort();
  await server.shutdown();
});
