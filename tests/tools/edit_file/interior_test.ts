/** Spaces inside lines outside literals (tools/edit_file/interior.ts). */

import { assertEquals } from "../../helpers/assert.ts";
import { insideLiterals, literalsFor, squeeze } from "../../../tools/edit_file/interior.ts";

const text = (content: string, path = "a.ts") => squeeze(content, literalsFor(path)).text;

Deno.test("interior whitespace", async (t) => {
  await t.step("runs between words become one space; any other run goes", () => {
    assertEquals(text("count  :=  1"), "count:=1");
    assertEquals(text("if (x) {  return  y; }"), "if(x){return y;}");
    assertEquals(text("a\t=\tb  "), "a=b");
  });

  await t.step(
    "a comment's text is prose: its spaces are forgiven, its quotes are not literals",
    () => {
      assertEquals(text("x = 1 //  don't  panic"), "x=1//don't panic");
      assertEquals(text("x = 1 #  don't  panic", "a.py"), "x=1#don't panic");
    },
  );

  await t.step("string, template, regex and shell literals keep their spaces", () => {
    assertEquals(text("s = \"a  b\" + 'c  d' + `e  f`"), "s=\"a  b\"+'c  d'+`e  f`");
    assertEquals(text("re = /a  b/g; r = x / y"), "re=/a  b/g;r=x/y");
    assertEquals(text("echo 'a  b'  |  wc", "run.sh"), "echo 'a  b'|wc");
    assertEquals(text('s = "a \\"  b"'), 's="a \\"  b"', "an escaped quote");
    assertEquals(text("it's  here", "notes.txt"), "it's  here", "left open: the rest kept");
  });

  await t.step(
    "a shell's words hold everything but `|&;()<>`; `#` comments at a word's start",
    () => {
      assertEquals(text("ls  -la  /tmp | sort", "run.sh"), "ls -la /tmp|sort");
      assertEquals(text("x=1;  y=2", "run.sh"), "x=1;y=2");
      assertEquals(text("echo ${#a}  b", "run.sh"), "echo ${#a} b");
      assertEquals(text("echo a  # b  c", "run.sh"), "echo a # b c");
    },
  );

  await t.step("the languages: comments by extension; an unknown one has quotes only", () => {
    assertEquals(literalsFor("a.go").comments, ["//"]);
    assertEquals(literalsFor("Makefile").comments, ["#"]);
    assertEquals(literalsFor("a.yaml").hashAtWord, true);
    assertEquals(literalsFor("q.sql").comments, ["--"]);
    assertEquals(literalsFor("a.ts").regex, true);
    assertEquals(literalsFor("notes").comments, []);
  });

  await t.step("where each character came from", () => {
    assertEquals(squeeze("a  b = c", literalsFor("a.ts")), {
      text: "a b=c",
      from: [0, 1, 3, 5, 7],
      to: [1, 3, 4, 6, 8],
    });
  });

  await t.step("lines inside a literal spanning lines", () => {
    assertEquals(
      insideLiterals(['x = """doc', "  inside  ", '"""', "after", "s = `a", "b`", "c"]),
      [false, true, true, false, false, true, false],
    );
  });
});
