/**
 * The model of `scripts/bench/window.ts`, in a process of its own so that its work is not counted
 * as the window's: an OpenAI-compatible server whose every chat answer streams `TOKENS` tokens of
 * prose at `RATE` a second, paced by the clock (every 5 ms, the tokens then due) over SSE. Prints
 * its URL, then serves until stdin closes.
 */

const TOKENS = Number(Deno.args[0] ?? 10_000);
const RATE = Number(Deno.args[1] ?? 2_000);

/**
 * Token `i` of the prose: a word of 2 to 7 letters and a space, a paragraph every 40 words; some
 * Markdown, which the window renders: a word in bold every 10, a heading every 400 words.
 */
function token(i: number): string {
  const w = "abcdefg".slice(0, 2 + (i * 7919) % 6);
  if (i % 400 === 0) return `## Part ${i / 400}\n\n${w} `;
  if (i % 10 === 5) return `**${w}** `;
  return i % 40 === 39 ? `${w}.\n\n` : `${w} `;
}

const encoder = new TextEncoder();
const event = (delta: Record<string, unknown>, finish: string | null = null) =>
  encoder.encode(
    `data: ${
      JSON.stringify({
        id: "b",
        object: "chat.completion.chunk",
        model: "bench",
        choices: [{ index: 0, delta, finish_reason: finish }],
      })
    }\n\n`,
  );

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
  const path = new URL(req.url).pathname;
  if (req.method === "POST") await req.text();
  if (!path.endsWith("/chat/completions")) return new Response("not found", { status: 404 });
  let timer: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const t0 = performance.now();
      let sent = 0;
      timer = setInterval(() => {
        const due = Math.min(TOKENS, Math.floor((performance.now() - t0) / 1000 * RATE));
        if (due > sent) {
          let text = "";
          for (; sent < due; sent++) text += token(sent);
          controller.enqueue(event({ content: text }));
        }
        if (sent === TOKENS) {
          clearInterval(timer);
          controller.enqueue(event({}, "stop"));
          controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          controller.close();
        }
      }, 5);
    },
    cancel() {
      clearInterval(timer);
    },
  });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
});

console.log(`http://127.0.0.1:${server.addr.port}`);
await Deno.stdin.readable.pipeTo(new WritableStream());
await server.shutdown();
