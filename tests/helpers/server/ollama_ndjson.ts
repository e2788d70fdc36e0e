/**
 * Ollama's native `POST /api/chat` answer: one JSON object per line, `message.thinking` and
 * `message.content` in pieces, each tool call whole with its arguments as an object, then a `done`
 * line with `prompt_eval_count` and `eval_count`.
 */

import { pieces, type StreamedReply, streamedResponse } from "./_stream.ts";

/** The 404 for a model with nothing scripted. */
export function ollamaModelNotFound(model: string): Response {
  return Response.json({ error: `model "${model}" not found, try pulling it first` }, {
    status: 404,
  });
}

/** The streamed NDJSON answer `reply` scripts, for `model`. */
export function ollamaStream(reply: StreamedReply, model: string): Response | Promise<Response> {
  const line = (message: Record<string, unknown>, done = false, extra = {}) =>
    JSON.stringify({
      model,
      created_at: new Date(0).toISOString(),
      message: { role: "assistant", content: "", ...message },
      done,
      ...extra,
    }) + "\n";
  return streamedResponse(reply, { "content-type": "application/x-ndjson" }, async (out) => {
    if ("hang" in reply) {
      await out.untilGone();
      return;
    }
    if ("drop" in reply) {
      out.send(line({ content: reply.text ?? "" }));
      await out.drop();
      return;
    }
    if ("runaway" in reply) {
      await out.flood(line({ content: reply.runaway }));
      return;
    }
    const size = reply.chunkSize ?? 1_000_000;
    const tick = () => reply.gap ? out.wait(reply.gap) : Promise.resolve();
    for (const t of pieces(reply.thought ?? "", size)) {
      out.send(line({ thinking: t }));
      await tick();
    }
    for (const t of pieces(reply.text ?? "", size)) {
      out.send(line({ content: t }));
      await tick();
    }
    if (reply.streamError !== undefined) {
      out.send(JSON.stringify({ error: reply.streamError }) + "\n");
      out.close();
      return;
    }
    if (reply.toolCalls?.length) {
      out.send(line({
        tool_calls: reply.toolCalls.map((call, index) => ({
          ...(call.id ? { id: call.id } : {}),
          function: {
            index,
            name: call.name,
            arguments: typeof call.arguments === "string"
              ? parsedOr(call.arguments)
              : call.arguments,
          },
        })),
      }));
    }
    out.send(line({}, true, {
      done_reason: "stop",
      prompt_eval_count: reply.usage?.prompt_tokens ?? 1,
      eval_count: reply.usage?.completion_tokens ?? 1,
      ...(reply.evalDuration ? { eval_duration: reply.evalDuration } : {}),
    }));
    out.close();
  });
}

/** Arguments scripted as JSON text, as the object Ollama sends (the text itself when invalid). */
function parsedOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
