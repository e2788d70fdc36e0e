/** The lsp tool against pyright's language server (npm; installed by .ci/run). */

import {
  PY_EMOJI_LINE,
  PY_FILES,
  PYRIGHT_SERVER,
  skipWithout,
} from "../../helpers/lsp/fixtures.ts";
import { runScenario } from "../../helpers/lsp/scenario.ts";

Deno.test({
  name: "lsp with pyright",
  ignore: skipWithout(PYRIGHT_SERVER.command),
  fn: async (t) => {
    await runScenario(t, {
      server: PYRIGHT_SERVER,
      files: PY_FILES,
      main: "app.py",
      util: "util.py",
      broken: "broken.py",
      fixed: "count: int = 3\n",
      greetDefinition: "app.py:5:5  def greet(name: str) -> str:",
      emojiLine: 9,
      greetColumn: 28,
      greetReferences: [
        "3 reference(s):",
        "app.py:5:5  def greet(name: str) -> str:",
        `app.py:9:28  ${PY_EMOJI_LINE}`,
        'app.py:10:7  print(greet("x"), shout(message))',
      ].join("\n"),
      greetHover: "def greet(name: str) -> str",
      greetSymbol: "function greet  line 5",
      shoutCallLine: 10,
      shoutDefinition: ["util.py:4:5  def shout(text: str) -> str:"],
      brokenDiagnostic: `error broken.py:1:14 Type "Literal['three']" is not assignable to ` +
        `declared type "int" "Literal['three']" is not assignable to "int" [Pyright]`,
      renamedMessage: {
        output: "renamed to msg: 2 edit(s) in 1 file(s)\napp.py: 2 edit(s)",
        lines: {
          9: 'emoji = "😀😀 漢字"; msg = greet(emoji)',
          10: 'print(greet("x"), shout(msg))',
        },
      },
      renamedShout: {
        symbolLine: 4,
        output: "renamed to yell: 3 edit(s) in 2 file(s)\napp.py: 2 edit(s)\nutil.py: 1 edit(s)",
        util: PY_FILES["util.py"].replace("shout(", "yell("),
        mainIncludes: "from util import yell",
      },
      yellDefinition: "util.py:4:5  def yell(text: str) -> str:",
    });
  },
});
