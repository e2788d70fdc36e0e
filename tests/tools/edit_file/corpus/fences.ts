/** Markdown code fences copied around old and new: taken off, never in a file that has fences. */

import { category, edit, GO, GO2, NOT_FOUND } from "./case.ts";

const c = category("fences");
export const FENCE_CASES = c.cases;

const SAYS = "· 1 matched without code fences";

c.apply(
  "```go around old and new",
  "main.go",
  GO,
  edit("```go\n\tcount := 1\n\tprint(count)\n```", "```go\n\tcount := 2\n\tprint(count)\n```"),
  GO2,
  SAYS,
);
c.apply(
  "a bare ``` fence around old only",
  "main.go",
  GO,
  edit("```\n\tcount := 1\n```\n", "\tcount := 2\n"),
  GO2,
  SAYS,
);
c.apply(
  "~~~ fences around old and new",
  "app.py",
  "def f():\n    return 1\n",
  edit("~~~python\ndef f():\n    return 1\n~~~", "~~~python\ndef f():\n    return 2\n~~~"),
  "def f():\n    return 2\n",
  SAYS,
);
c.apply(
  "a fence around new alone, in a code file, is not written into it",
  "main.go",
  GO,
  edit("\tcount := 1", "```go\n\tcount := 2\n```"),
  GO2,
  SAYS,
);
c.apply(
  "fences and spaces for tabs",
  "main.go",
  GO,
  edit(
    "```go\n    count := 1\n    print(count)\n```",
    "```go\n    count := 2\n    print(count)\n```",
  ),
  GO2,
  "· 1 matched ignoring whitespace · 1 matched without code fences",
);
const README = "# Tool\n\nInstall:\n\n```sh\nnpm install tool\n```\n\nThen run it.\n";
c.apply(
  "a Markdown file whose fences are content: an exact old with its fence is applied as sent",
  "README.md",
  README,
  edit("```sh\nnpm install tool\n```", "```sh\nnpm install -g tool\n```"),
  README.replace("npm install tool", "npm install -g tool"),
);
c.refuse(
  "a Markdown file with fences: a stale fenced old is not unwrapped",
  "README.md",
  README,
  edit("```sh\nnpm i tool\n```", "```sh\nnpm i -g tool\n```"),
  NOT_FOUND,
);
c.apply(
  "a Markdown file without fences: a fenced block in new is content",
  "NOTES.md",
  "# Notes\n\nTODO: example\n",
  edit("TODO: example", "```sh\nmake run\n```"),
  "# Notes\n\n```sh\nmake run\n```\n",
);
const LOOP =
  "func f(n int) error {\n\tvar err error\n\tfor i := 0; i < n; i++ {\n\t\terr = step(i)\n\t}\n\treturn err\n}\n";
c.apply(
  "a bare fence around old, new without: the fence's inner newline is not old's",
  "loop.go",
  LOOP,
  edit(
    "```\n\tvar err error\n\tfor i := 0; i < n; i++ {\n```\n",
    "\tvar err error\n\tfor i := 0; i < n*2; i++ {",
  ),
  LOOP.replace("i < n;", "i < n*2;"),
  SAYS,
);
c.apply(
  "a fence around new alone with a newline after it, old a line with its newline",
  "loop.go",
  LOOP,
  edit("\treturn err\n", '```go\n\treturn fmt.Errorf("f: %w", err)\n```\n'),
  LOOP.replace("\treturn err\n", '\treturn fmt.Errorf("f: %w", err)\n'),
  SAYS,
);
