import { assertEquals } from "./helpers/assert.ts";
import {
  addSecret,
  addUrlSecrets,
  isSecretParameter,
  isSecretValue,
  redact,
  redactCutEnd,
  redactCutStart,
  redactUrl,
} from "../lib/secrets.ts";

Deno.test("secrets", async (t) => {
  await t.step("a URL's userinfo is redacted, the rest of the URL kept", () => {
    assertEquals(redactUrl("http://user:sk-1@host:8080/v1"), "http://***@host:8080/v1");
    assertEquals(redactUrl("http://host/v1"), "http://host/v1");
    assertEquals(
      redact('{"m":"see x://a","u":"me@host"} and https://k@h/ too'),
      '{"m":"see x://a","u":"me@host"} and https://***@h/ too',
      "a JSON text stays JSON: the userinfo never spans a quote",
    );
  });

  await t.step("a secret of 8 characters or more is redacted wherever it appears", () => {
    addSecret("sk-unit-secret-42");
    addSecret("ollama"); // a placeholder, not a secret
    assertEquals(redact("key sk-unit-secret-42, again sk-unit-secret-42"), "key ***, again ***");
    assertEquals(redact("ollama @ localhost"), "ollama @ localhost");
    assertEquals(isSecretValue("ollama"), false);
  });

  await t.step("a query parameter that looks like a secret: its value redacted", () => {
    assertEquals(
      redactUrl("https://h/mcp?token=abc123&mode=fast&api_key=k1#top"),
      "https://h/mcp?token=***&mode=fast&api_key=***#top",
    );
    assertEquals(
      redact('{"url":"http://h/sse?Authorization=Bearer%20x&x-api-key=y"} and s?sig=zz;page=2'),
      '{"url":"http://h/sse?Authorization=***&x-api-key=***"} and s?sig=***;page=2',
      "a JSON text stays JSON: a value never spans a quote",
    );
    assertEquals(redact("http://h/v1?page=2&keyword=token"), "http://h/v1?page=2&keyword=token");
    for (const name of ["token", "access_token", "apiKey", "key", "client_secret", "password"]) {
      assertEquals(isSecretParameter(name), true, name);
    }
    for (const name of ["auth", "X-Auth-Token", "credentials", "signature", "api%5Fkey"]) {
      assertEquals(isSecretParameter(decodeURIComponent(name)), true, name);
    }
    for (const name of ["page", "keyword", "mode", "q", "session"]) {
      assertEquals(isSecretParameter(name), false, name);
    }
  });

  await t.step("a URL's secret query parameter is a secret wherever it appears", () => {
    addUrlSecrets("https://h/mcp?token=tok-1234%2B5678&page=12345678");
    assertEquals([isSecretValue("tok-1234+5678"), isSecretValue("12345678")], [true, false]);
    assertEquals(redact("the token tok-1234+5678 was refused"), "the token *** was refused");
  });

  await t.step("a URL with credentials makes its password a secret", () => {
    addUrlSecrets("http://bob:pass%2Dword-1234@host/v1");
    addUrlSecrets("http://localhost:11434");
    assertEquals(redact("at http://localhost:11434 now"), "at http://localhost:11434 now");
    assertEquals(isSecretValue("pass-word-1234"), true);
    assertEquals(redact("the password is pass-word-1234"), "the password is ***");
  });

  await t.step("a percent-encoded password is redacted as written and decoded", () => {
    addUrlSecrets("http://u:p%40ssWORD12345@host/v1");
    assertEquals(redact("p%40ssWORD12345 and p@ssWORD12345"), "*** and ***");
    assertEquals([isSecretValue("p%40ssWORD12345"), isSecretValue("p@ssWORD12345")], [true, true]);
    // All after the first colon is the password, colons included.
    addUrlSecrets("http://u:colon:in-the-pass@host/v1");
    assertEquals(redact("colon:in-the-pass"), "***");
  });
});

Deno.test("what a cut keeps of a secret is redacted, at least MIN_SECRET_LENGTH of it", async (t) => {
  addSecret("sk-CUTabcdefghijklmnop");
  await t.step("the start of a secret before a cut", () => {
    assertEquals(redactCutEnd("aaa sk-CUTabcdefg"), "aaa ***");
    assertEquals(redactCutEnd("aaa sk-CUTab"), "aaa ***");
    // Shorter than MIN_SECRET_LENGTH: no secret is told.
    assertEquals(redactCutEnd("aaa sk-CUTa"), "aaa sk-CUTa");
    assertEquals(redactCutEnd("sk-CUTabcd then"), "sk-CUTabcd then");
  });
  await t.step("the end of a secret after a cut", () => {
    assertEquals(redactCutStart("fghijklmnop bbb"), "*** bbb");
    assertEquals(redactCutStart("ijklmnop bbb"), "*** bbb");
    assertEquals(redactCutStart("jklmnop bbb"), "jklmnop bbb");
  });
});
