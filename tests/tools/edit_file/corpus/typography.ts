/** Curly quotes, dashes, non-breaking spaces and `…` in old where the file has ASCII, and back. */

import { AMBIGUOUS, category, edit, NOT_FOUND } from "./case.ts";

const c = category("typography");
export const TYPOGRAPHY_CASES = c.cases;

const SAYS = "· 1 matched ignoring typography";

c.apply(
  "Python: curly quotes in old and new; the file keeps ASCII",
  "app.py",
  'print("hello")\nx = 1\n',
  edit("print(\u201Chello\u201D)", "print(\u201Cgoodbye\u201D)"),
  'print("goodbye")\nx = 1\n',
  SAYS,
);
c.apply(
  "JavaScript: curly single quotes around a string",
  "app.js",
  "const name = 'world';\nconsole.log(name);\n",
  edit("const name = \u2018world\u2019;", "const name = \u2018there\u2019;"),
  "const name = 'there';\nconsole.log(name);\n",
  SAYS,
);
c.apply(
  "shell: an en dash for a flag's hyphen",
  "run.sh",
  "#!/bin/sh\nls -la /tmp\n",
  edit("ls \u2013la /tmp", "ls \u2013lah /tmp"),
  "#!/bin/sh\nls -lah /tmp\n",
  SAYS,
);
c.apply(
  "a non-breaking space in old",
  "config.ini",
  "[db]\nname = shop\n",
  edit("name\u00A0= shop", "name = store"),
  "[db]\nname = store\n",
  SAYS,
);
c.apply(
  "`…` in old where the file has three dots",
  "app.ts",
  'log("loading...");\n',
  edit('log("loading\u2026");', 'log("still loading\u2026");'),
  'log("still loading...");\n',
  SAYS,
);
c.apply(
  "a non-breaking hyphen in old",
  "build.gradle",
  "plugins {\n    id 'java-library'\n}\n",
  edit("    id 'java\u2011library'", "    id 'java-library'\n    id 'maven-publish'"),
  "plugins {\n    id 'java-library'\n    id 'maven-publish'\n}\n",
  SAYS,
);
const PROSE = "He said \u201Chello\u201D \u2014 twice.\nThen he left.\n";
c.apply(
  "the reverse: the file has curly quotes and a dash, old and new ASCII",
  "story.md",
  PROSE,
  edit('He said "hello" - twice.', 'He said "goodbye" - twice.'),
  "He said \u201Cgoodbye\u201D \u2014 twice.\nThen he left.\n",
  SAYS,
);
c.apply(
  "the reverse: new's own quotes take the file's curly form",
  "story.md",
  "\u201CHi,\u201D she said.\nThe end.\n",
  edit('"Hi," she said.', '"Hi," she said. "Again?"'),
  "\u201CHi,\u201D she said. \u201CAgain?\u201D\nThe end.\n",
  SAYS,
);
c.apply(
  "typography and indentation together",
  "app.py",
  'def f():\n    return "ok"\n',
  edit("def f():\n  return \u201Cok\u201D", "def f():\n  return \u201Cfine\u201D"),
  'def f():\n    return "fine"\n',
  "· 1 matched ignoring whitespace · 1 matched ignoring typography",
);
c.refuse(
  "typography does not relax uniqueness",
  "app.py",
  'a = "x"\nb = "x"\n',
  edit("\u201Cx\u201D", "\u201Cy\u201D"),
  `${AMBIGUOUS} 2 times (lines 1, 2)`,
);
c.refuse(
  "a different word is not typography",
  "app.py",
  'print("hello")\n',
  edit("print(\u201Chullo\u201D)", "print(\u201Cbye\u201D)"),
  NOT_FOUND,
);
c.apply(
  "an em dash in new, in a file without any, becomes a hyphen",
  "app.py",
  'title = "Step one"\n',
  edit("title = \u201CStep one\u201D", "title = \u201CStep one \u2014 setup\u201D"),
  'title = "Step one - setup"\n',
  SAYS,
);
c.apply(
  "a curly apostrophe in a comment",
  "main.go",
  "// it's done\nfunc done() {}\n",
  edit("// it\u2019s done", "// it\u2019s finished"),
  "// it's finished\nfunc done() {}\n",
  SAYS,
);
c.apply(
  "an ellipsis in the file, three dots in old and new: one unit, written once",
  "App.tsx",
  'export const Spinner = () => <p>{"Loading\u2026"}</p>;\n',
  edit('<p>{"Loading..."}</p>', '<p>{"Loading data..."}</p>'),
  'export const Spinner = () => <p>{"Loading data\u2026"}</p>;\n',
);
