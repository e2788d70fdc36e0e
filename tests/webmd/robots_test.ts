import { assertEquals } from "../helpers/assert.ts";
import {
  isAllowed,
  parseRobotsTxt,
  policyAllows,
  ROBOTS_TTL,
  robotsAllows,
  RobotsCache,
  rulesFor,
} from "../../lib/webmd/robots.ts";

/** RFC 9309 §5.1, verbatim. */
const RFC_EXAMPLE = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
`;

/** Whether `token` may fetch each path, as a record for one assertion. */
function verdicts(robots: string, token: string, paths: string[]): Record<string, boolean> {
  return Object.fromEntries(paths.map((p) => [p, robotsAllows(robots, token, p)]));
}

Deno.test("robots.txt (RFC 9309)", async (t) => {
  await t.step("the RFC's example: foobot, barbot, bazbot, quxbot and any other crawler", () => {
    const paths = [
      "/",
      "/example/page.html",
      "/example/allowed.gif",
      "/example/other.html",
      "/a.gif",
      "/publications/x",
    ];
    assertEquals(verdicts(RFC_EXAMPLE, "foobot", paths), {
      "/": false,
      "/example/page.html": true,
      "/example/allowed.gif": true,
      "/example/other.html": false,
      "/a.gif": false,
      "/publications/x": false,
    });
    for (const bot of ["barbot", "bazbot"]) {
      assertEquals(verdicts(RFC_EXAMPLE, bot, paths), {
        "/": true,
        "/example/page.html": false,
        "/example/allowed.gif": true,
        "/example/other.html": true,
        "/a.gif": true,
        "/publications/x": true,
      });
    }
    assertEquals(Object.values(verdicts(RFC_EXAMPLE, "quxbot", paths)), paths.map(() => true));
    assertEquals(verdicts(RFC_EXAMPLE, "mm", paths), {
      "/": true,
      "/example/page.html": false,
      "/example/allowed.gif": false,
      "/example/other.html": false,
      "/a.gif": false,
      "/publications/x": true,
    });
  });

  await t.step("the RFC's longest match: the most specific rule wins", () => {
    const robots =
      "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n";
    assertEquals(verdicts(robots, "foobot", ["/example/page/", "/example/page/disallowed.gif"]), {
      "/example/page/": true,
      "/example/page/disallowed.gif": false,
    });
  });

  await t.step("Allow wins a tie of equal length", () => {
    assertEquals(
      robotsAllows("User-agent: *\nDisallow: /page\nAllow: /page\n", "mm", "/page"),
      true,
    );
    assertEquals(
      robotsAllows("User-agent: *\nAllow: /pag*\nDisallow: /page\n", "mm", "/page"),
      true,
    );
  });

  await t.step("* matches any run of characters, a final $ the end of the path", () => {
    const robots =
      "User-agent: mm\nDisallow: /this/*/exactly\nDisallow: /*.pdf$\nDisallow: /end$\n";
    assertEquals(
      verdicts(robots, "mm", [
        "/this/a/b/exactly",
        "/this/exactly",
        "/doc.pdf",
        "/doc.pdf?x=1",
        "/end",
        "/end/more",
        "/a$b",
      ]),
      {
        "/this/a/b/exactly": false,
        "/this/exactly": true,
        "/doc.pdf": false,
        "/doc.pdf?x=1": true,
        "/end": false,
        "/end/more": true,
        "/a$b": true,
      },
    );
    // A `$` that does not end the pattern is an ordinary character.
    assertEquals(robotsAllows("User-agent: *\nDisallow: /a$b\n", "mm", "/a$b"), false);
  });

  await t.step("the RFC's percent-encoding table", () => {
    const cases: [string, string][] = [
      ["/foo/bar?baz=quz", "/foo/bar?baz=quz"],
      ["/foo/bar?baz=https://foo.bar", "/foo/bar?baz=https%3A%2F%2Ffoo.bar"],
      ["/foo/bar/ツ", "/foo/bar/%E3%83%84"],
      ["/foo/bar/%E3%83%84", "/foo/bar/%E3%83%84"],
      ["/foo/bar/%62%61%7A", "/foo/bar/baz"],
      ["/foo/bar/%e3%83%84", "/foo/bar/%E3%83%84"],
    ];
    for (const [rule, path] of cases) {
      assertEquals(robotsAllows(`User-agent: *\nDisallow: ${rule}$\n`, "mm", path), false, rule);
    }
  });

  await t.step("mm's groups first (combined, case-insensitive), else the * group", () => {
    const robots = [
      "User-agent: *",
      "Disallow: /",
      "",
      "User-agent: MM/2.0",
      "Disallow: /private",
      "",
      "User-agent: other",
      "Disallow: /x",
      "",
      "user-agent: mm",
      "disallow: /secret # the rest is a comment",
    ].join("\n");
    assertEquals(verdicts(robots, "mm", ["/", "/private/a", "/secret", "/x"]), {
      "/": true,
      "/private/a": false,
      "/secret": false,
      "/x": true,
    });
    assertEquals(robotsAllows(robots, "mmbot", "/"), false);
  });

  await t.step("an empty Disallow, no matching group, rules before any user-agent", () => {
    assertEquals(
      robotsAllows("User-agent: mm\nDisallow:\n\nUser-agent: *\nDisallow: /\n", "mm", "/a"),
      true,
    );
    assertEquals(robotsAllows("User-agent: other\nDisallow: /\n", "mm", "/a"), true);
    assertEquals(robotsAllows("Disallow: /\n", "mm", "/a"), true);
    assertEquals(robotsAllows("", "mm", "/a"), true);
    assertEquals(parseRobotsTxt("Sitemap: https://x/s.xml\nCrawl-delay: 5\n"), { groups: [] });
  });

  await t.step("CR, CRLF, a byte-order mark, and /robots.txt always allowed", () => {
    assertEquals(robotsAllows("\uFEFFUser-agent: *\r\nDisallow: /a\r\n", "mm", "/a"), false);
    assertEquals(robotsAllows("User-agent: *\rDisallow: /a\r", "mm", "/a/b"), false);
    assertEquals(robotsAllows("User-agent: *\nDisallow: /\n", "mm", "/robots.txt"), true);
  });

  await t.step("rulesFor and isAllowed, the pieces under robotsAllows", () => {
    const rules = rulesFor(parseRobotsTxt("User-agent: *\nAllow: /a\nDisallow: /\n"), "mm");
    assertEquals(rules, [{ allow: true, pattern: "/a" }, { allow: false, pattern: "/" }]);
    assertEquals([isAllowed(rules, "/a/1"), isAllowed(rules, "/b")], [true, false]);
  });

  await t.step("policies: rules, allow everything (4xx), forbid everything (5xx)", () => {
    const url = new URL("https://example.com/private?q=1");
    const rules = rulesFor(parseRobotsTxt("User-agent: *\nDisallow: /private\n"), "mm");
    assertEquals(policyAllows({ kind: "rules", rules }, url), false);
    assertEquals(policyAllows({ kind: "allowAll", status: 404 }, url), true);
    assertEquals(policyAllows({ kind: "forbidAll", reason: "HTTP 503" }, url), false);
  });

  await t.step("the cache keeps a policy 24 hours per origin", () => {
    let now = 1_000;
    const cache = new RobotsCache({ now: () => now });
    cache.set("https://a.example", { kind: "allowAll", status: 404 });
    assertEquals(cache.get("https://a.example"), { kind: "allowAll", status: 404 });
    assertEquals(cache.get("https://b.example"), undefined);
    now += ROBOTS_TTL - 1;
    assertEquals(cache.get("https://a.example")?.kind, "allowAll");
    now += 1;
    assertEquals(cache.get("https://a.example"), undefined);
    cache.set("https://a.example", { kind: "allowAll", status: 410 });
    cache.clear();
    assertEquals(cache.get("https://a.example"), undefined);
  });
});
