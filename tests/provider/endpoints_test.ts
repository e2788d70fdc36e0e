/** Where each provider's paths are built (lib/provider/endpoints.ts). */

import { chatBaseURL, modelsURL, serverRoot } from "../../lib/provider/endpoints.ts";
import { assertEquals } from "../helpers/assert.ts";

Deno.test("serverRoot: the API path mm adds is not added twice", () => {
  assertEquals(serverRoot("llamacpp", "http://h:8080/v1/"), "http://h:8080");
  assertEquals(serverRoot("ollama", "http://h:11434/v1"), "http://h:11434");
  assertEquals(serverRoot("dmr", "http://h:12434/engines/v1"), "http://h:12434");
  assertEquals(serverRoot("openai", "http://h/v1/"), "http://h/v1");
  assertEquals(serverRoot("llamacpp", "http://h:8080/api/v1x"), "http://h:8080/api/v1x");
  assertEquals(chatBaseURL("llamacpp", "http://h:8080/v1"), "http://h:8080/v1");
  assertEquals(modelsURL("llamacpp", "http://h:8080/v1"), "http://h:8080/v1/models");
});
