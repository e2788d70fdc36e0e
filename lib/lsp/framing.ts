/**
 * A language server's messages, bounded before vscode-jsonrpc buffers them: the `Content-Length`
 * framing followed byte by byte, and a message announced longer than its limit refused at its
 * header, before any of its body is held (vscode-jsonrpc has no limit of its own).
 */

import { MAX_LSP_MESSAGE } from "../bounded/limits.ts";

/** Bytes of one message's headers at most. */
const MAX_HEADERS = 64 * 1024;

const END = [13, 10, 13, 10]; // \r\n\r\n

/** Follows the framing of a byte stream; {@linkcode feed} says when a message is too large. */
export class ContentLengthGuard {
  readonly limit: number;
  #headers: number[] = [];
  /** Body bytes still to come; -1 while reading headers; Infinity once the framing is lost. */
  #body = -1;

  /** A guard refusing messages over `limit` bytes. */
  constructor(limit = MAX_LSP_MESSAGE) {
    this.limit = limit;
  }

  /**
   * Takes the next chunk: undefined when it may be passed on, else the length of the message
   * refused (its headers' length when they never end). A framing it cannot read (no
   * `Content-Length`) is left to vscode-jsonrpc, which reports it.
   */
  feed(chunk: Uint8Array): number | undefined {
    let at = 0;
    while (at < chunk.length) {
      if (this.#body === Infinity) return undefined;
      if (this.#body > 0) {
        const take = Math.min(this.#body, chunk.length - at);
        this.#body -= take;
        at += take;
        if (this.#body === 0) this.#body = -1;
        continue;
      }
      // Headers: a few hundred bytes, kept until their blank line.
      const h = this.#headers;
      h.push(chunk[at++]);
      if (h.length > MAX_HEADERS) return h.length;
      const n = h.length;
      if (
        n < 4 || h[n - 4] !== END[0] || h[n - 3] !== END[1] || h[n - 2] !== END[2] ||
        h[n - 1] !== END[3]
      ) continue;
      const text = new TextDecoder().decode(new Uint8Array(h));
      this.#headers = [];
      const m = text.match(/^content-length\s*:\s*(\d+)\s*$/im);
      if (!m) {
        this.#body = Infinity;
        continue;
      }
      const length = Number(m[1]);
      if (length > this.limit) return length;
      this.#body = length === 0 ? -1 : length;
    }
    return undefined;
  }
}
