/**
 * The OpenAI-compatible `POST /chat/completions` answer, as llama.cpp's server streams it: SSE
 * `data:` chunks of `chat.completion.chunk` deltas, tool calls in pieces, `data: [DONE]` at the end.
 */

import { pieces, type StreamedReply, streamedResponse } from "./_stream.ts";

/** The 404 for a model with nothing scripted. */
export function openaiModelNotFound(model: string): Response {
  return Response.json({
    error: { message: `model "${model}" not found, try pulling it first` },
  }, {
    status: 404,
  });
}

/** One `data:` event: a `chat.completion.chunk` with one choice holding `delta`. */
function chunk(model: string, delta: Record<string, unknown>, finish: string | null = null) {
  return `data: ${
    JSON.stringify({
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      created: 0,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    })
  }\n\n`;
}

/** The streamed SSE answer `reply` scripts, for `model`. */
export function openaiStream(reply: StreamedReply, model: string): Response | Promise<Response> {
  const headers = { "content-type": "text/event-stream", "cache-control": "no-cache" };
  return streamedResponse(reply, headers, async (out) => {
    if ("hang" in reply) {
      out.send(": waiting\n\n");
      await out.untilGone();
      return;
    }
    if ("drop" in reply) {
      out.send(chunk(model, { role: "assistant", content: reply.text ?? "" }));
      await out.drop();
      return;
    }
    if ("runaway" in reply) {
      out.send(chunk(model, {
        role: "assistant",
        tool_calls: [{
          index: 0,
          id: "call_run",
          type: "function",
          function: { name: reply.name, arguments: '{"content": "' },
        }],
      }));
      await out.flood(
        chunk(model, { tool_calls: [{ index: 0, function: { arguments: reply.runaway } }] }),
      );
      return;
    }
    const size = reply.chunkSize ?? 1_000_000;
    const gap = reply.gap ?? 0;
    const tick = () => gap ? out.wait(gap) : Promise.resolve();
    out.send(chunk(model, { role: "assistant", content: "" }));
    for (const t of pieces(reply.thought ?? "", size)) {
      out.send(chunk(model, { [reply.thoughtField ?? "reasoning_content"]: t }));
      await tick();
    }
    for (const t of pieces(reply.text ?? "", size)) {
      out.send(chunk(model, { content: t }));
      await tick();
    }
    if (reply.streamError !== undefined) {
      out.send(`data: ${JSON.stringify({ error: { message: reply.streamError } })}\n\n`);
      out.close();
      return;
    }
    for (const [index, call] of (reply.toolCalls ?? []).entries()) {
      const args = typeof call.arguments === "string"
        ? call.arguments
        : JSON.stringify(call.arguments);
      const names = pieces(call.name, size);
      const at = reply.noIndex ? {} : { index };
      out.send(chunk(model, {
        tool_calls: [{
          ...at,
          id: call.id ?? `call_${index}`,
          type: "function",
          function: { name: names[0], arguments: "" },
        }],
      }));
      for (const n of names.slice(1)) {
        out.send(chunk(model, { tool_calls: [{ ...at, function: { name: n } }] }));
      }
      for (const a of pieces(args, size)) {
        out.send(chunk(model, { tool_calls: [{ ...at, function: { arguments: a } }] }));
        await tick();
      }
    }
    out.send(chunk(model, {}, reply.toolCalls?.length ? "tool_calls" : "stop"));
    if (reply.usage) {
      out.send(
        `data: ${
          JSON.stringify({
            id: "chatcmpl-1",
            object: "chat.completion.chunk",
            model,
            choices: [],
            usage: reply.usage,
            ...(reply.timings ? { timings: reply.timings } : {}),
          })
        }\n\n`,
      );
    }
    out.send("data: [DONE]\n\n");
    out.close();
  });
}
