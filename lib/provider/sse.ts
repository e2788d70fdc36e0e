/**
 * Server-sent events as model servers stream them (the WHATWG event-stream format): the `event`
 * and the `data` of each event, data lines joined, comments and other fields left out, CR, LF and
 * CRLF line ends. Read in linear time and bounded: a line, or an event's data, longer than
 * {@linkcode MAX_STREAM_LINE} stops the stream with `TooLarge` (lib/bounded/lines.ts).
 */

import { MAX_STREAM_LINE } from "../bounded/limits.ts";
import { readLines, TooLarge } from "../bounded/lines.ts";

/** One event of a stream: its `event` field (`message` when it has none) and its `data`. */
export interface SSEvent {
  event: string;
  data: string;
}

/** The events of `body`, in order; an event without data yields nothing. */
export async function* sseEvents(
  body: ReadableStream<Uint8Array>,
  max = MAX_STREAM_LINE,
): AsyncGenerator<SSEvent> {
  let data: string[] = [];
  let size = 0;
  let event = "message";
  for await (const line of readLines(body, { max, cr: true })) {
    if (line === "") {
      if (data.length) yield { event, data: data.join("\n") };
      data = [];
      size = 0;
      event = "message";
    } else if (line.startsWith("data:")) {
      const value = line.slice(line[5] === " " ? 6 : 5);
      size += value.length + 1;
      if (size > max) throw new TooLarge(max);
      data.push(value);
    } else if (line.startsWith("event:")) {
      event = line.slice(line[6] === " " ? 7 : 6);
    }
  }
  if (data.length) yield { event, data: data.join("\n") };
}
