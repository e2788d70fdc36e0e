import { assertEquals } from "./helpers/assert.ts";
import { childEnv, isSecret, withoutSecrets } from "../lib/child_env.ts";
import { addSecret } from "../lib/secrets.ts";

Deno.test("child_env", async (t) => {
  await t.step("MM_API_KEY and any variable holding a secret are left out; extra goes over", () => {
    addSecret("sk-child-env-secret");
    const env = { MM_API_KEY: "k", COPY: "sk-child-env-secret", PATH: "/bin", SHLVL: "1" };
    assertEquals(withoutSecrets(env, { DEPTH: "2" }), { PATH: "/bin", SHLVL: "1", DEPTH: "2" });
    assertEquals(isSecret("MM_API_KEY", "anything"), true);
    assertEquals(isSecret("PATH", "/bin"), false);
  });

  await t.step(
    "the options of Deno.Command: a cleared environment, without the secrets",
    async () => {
      const { env, clearEnv } = childEnv({ EXTRA: "1" });
      assertEquals(clearEnv, true);
      assertEquals(env.EXTRA, "1");
      assertEquals(env.PATH, Deno.env.get("PATH"));
      const out = await new Deno.Command("bash", {
        args: ["-c", 'echo "[${MM_API_KEY-unset}] [$EXTRA]"'],
        ...childEnv({ EXTRA: "x" }),
        stdout: "piped",
      }).output();
      assertEquals(new TextDecoder().decode(out.stdout), "[unset] [x]\n");
    },
  );
});
