/**
 * The pipes of a started process (lib/exec/spawn.ts) as Node streams, for a library that wants
 * them (vscode-jsonrpc's stream reader and writer: lib/lsp/client.ts).
 */

import { Readable, Writable } from "node:stream";
import type {
  ReadableStream as NodeReadable,
  WritableStream as NodeWritable,
} from "node:stream/web";
import type { Spawned } from "./spawn.ts";

/** A process's stdin, stdout and stderr as Node streams. */
export interface NodePipes {
  stdin: Writable;
  stdout: Readable;
  stderr: Readable;
}

/** The pipes of `process`, started with all three `piped`, as Node streams. */
export function nodePipes(process: Spawned): NodePipes {
  const { stdin, stdout, stderr } = process.child;
  return {
    stdin: Writable.fromWeb(stdin as unknown as NodeWritable),
    stdout: Readable.fromWeb(stdout as unknown as NodeReadable),
    stderr: Readable.fromWeb(stderr as unknown as NodeReadable),
  };
}
