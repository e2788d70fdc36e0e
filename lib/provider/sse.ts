/**
 * Server-sent events as model servers stream them (the WHATWG event-stream format): the `event`
 * and the `data` of each event, data lines joined, comments and other fields left out, CR, LF and
 * CRLF line ends.
 */

/** One event of a stream: its `event` field (`message` when it has none) and its `data`. */
export interface SSEvent {
  event: string;
  data: string;
}

/** The events of `body`, in order; an event without data yields nothing. */
export async function* sseEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<SSEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  let data: string[] = [];
  let event = "message";
  const lineEnd = /\r\n|\r|\n/;
  for await (const chunk of body) {
    buffer += decoder.decode(chunk, { stream: true });
    let m: RegExpExecArray | null;
    while ((m = lineEnd.exec(buffer)) !== null) {
      // A CR at the very end may be the first half of a CRLF: wait for the next chunk.
      if (m[0] === "\r" && m.index === buffer.length - 1) break;
      const line = buffer.slice(0, m.index);
      buffer = buffer.slice(m.index + m[0].length);
      if (line === "") {
        if (data.length) yield { event, data: data.join("\n") };
        data = [];
        event = "message";
      } else if (line.startsWith("data:")) {
        data.push(line.slice(line[5] === " " ? 6 : 5));
      } else if (line.startsWith("event:")) {
        event = line.slice(line[6] === " " ? 7 : 6);
      }
    }
  }
  buffer += decoder.decode();
  if (buffer.startsWith("data:")) data.push(buffer.slice(buffer[5] === " " ? 6 : 5));
  if (data.length) yield { event, data: data.join("\n") };
}
