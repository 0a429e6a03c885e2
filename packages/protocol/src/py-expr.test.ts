import { describe, expect, it } from "vitest";
import { literalEval, parsePyExpression, type PyNode, type PyValue } from "./py-expr";

const verdict = (line: string) => {
  const r = parsePyExpression(line);
  return r.ok ? "ok" : r.fatal ? "fatal" : "syntax";
};
const node = (line: string): PyNode => {
  const r = parsePyExpression(line);
  if (!r.ok) throw new Error(`${line}: ${r.error}`);
  return r.node;
};
const kwValue = (line: string): PyValue => {
  const n = node(line);
  if (n.k !== "Call" || !n.keywords[0]) throw new Error("not a call with a keyword");
  return literalEval(n.keywords[0].value);
};

describe("parsePyExpression: what CPython 3.11's ast.parse(mode='eval') accepts", () => {
  it.each([
    "crop_video(video_path='v.mp4', start_time=10, end_time=20)",
    "print(crop_video('v.mp4', 1, 2))",
    "a.b.crop(x=1)  # comment",
    "f(a=1, a=2)",
    "f(*a, b=1, *c)",
    "f(x for x in y)",
    "f(lambda x, *, k=1, **kw: x if k else None)",
    "f(x=[i for i in range(3) if i], y={k: v for k, v in z}, w={*a, 1})",
    "f(x=a[1:2, ::3], y=a[*b], z=(w := 1))",
    "f(x=f'{a!r:>{w}}', y=rb'\\d', z='a' 'b', u=u'x')",
    "f(x=1if 1else 2, y=0_0, z=09.5, w=1e5_0, v=.5j)",
    "f(a,\rb)",
    "(yield)",
    "await x",
    "f(é=1, ｘ=2)",
  ])("accepts %s", (line) => {
    expect(verdict(line)).toBe("ok");
  });

  it.each([
    "crop_video(video_path=/a/b.mp4)",
    "crop_video(start_time=1:30)",
    "f(x);",
    "x := 1",
    "f(a=1, b)",
    "f(x for x in y, 1)",
    "f(**k, *a)",
    "f(True=1)",
    "f((a)=1)",
    "f(01)",
    "f(1_)",
    "f(1e)",
    "f(0b102)",
    "f(0xfor)",
    "f(1.real)",
    "f(x=ur'a')",
    "f(x=b'é')",
    "f(x='\\xzz')",
    "f(x=f'{}')",
    "f(x=f'{a!x}')",
    "f(x=f'{a:{b:{c}}}')",
    "f(x=f'}')",
    "f(x='a\rb')",
    "f(x=1)\rg(y)",
    "f(x)\r ",
    "f(x=\u00a01)",
    "f(\u00b2=1)",
    "f(x=1\u0000)",
    "f(x) \\",
    "f(x=`a`)",
    "f(x=lambda *: 1)",
    "f(x=lambda a=1, b: 1)",
    "f(x=[i for f() in y])",
    "f(" + "(".repeat(200) + "1" + ")".repeat(200) + ")",
  ])("refuses %s with a SyntaxError", (line) => {
    expect(verdict(line)).toBe("syntax");
  });

  it("reports errors CPython raises as something other than SyntaxError as fatal", () => {
    expect(verdict("f(x='\ud800')")).toBe("fatal");
    expect(verdict("f(x=" + "-".repeat(5000) + "1)")).toBe("fatal");
    expect(verdict("f(x=a" + ".b".repeat(5000) + ")")).toBe("fatal");
  });

  it("does not overflow the JS stack on long right-recursive chains", () => {
    for (const chain of ["not ", "lambda: ", "a if b else ", "2**"]) {
      expect(["ok", "fatal"]).toContain(verdict("f(x=" + chain.repeat(20000) + "1)"));
    }
  });
});

describe("literalEval: ast.literal_eval", () => {
  it("reads constants and containers", () => {
    expect(kwValue("f(x='a\\x41\\u00e9\\n\\777')")).toEqual({ t: "str", v: "aAé\nǿ" });
    expect(kwValue("f(x=r'\\d' 'e')")).toEqual({ t: "str", v: "\\de" });
    expect(kwValue("f(x=-5)")).toEqual({ t: "int", v: -5n });
    expect(kwValue("f(x=0x1F)")).toEqual({ t: "int", v: 31n });
    expect(kwValue("f(x=1_000.5)")).toEqual({ t: "float", v: 1000.5 });
    expect(kwValue("f(x=True)")).toEqual({ t: "bool", v: true });
    expect(kwValue("f(x=(1, [None]))")).toEqual({
      t: "tuple",
      items: [
        { t: "int", v: 1n },
        { t: "list", items: [{ t: "none" }] },
      ],
    });
    expect(kwValue("f(x=1-2j)")).toEqual({ t: "complex", re: 1, im: -2 });
    expect(kwValue("f(x=set())")).toEqual({ t: "set", items: [] });
  });

  it("merges equal dict keys like Python (1 == 1.0 == True)", () => {
    expect(kwValue("f(x={1: 'a', 1.0: 'b', True: 'c'})")).toEqual({
      t: "dict",
      entries: [
        [
          { t: "int", v: 1n },
          { t: "str", v: "c" },
        ],
      ],
    });
  });

  it.each([
    "f(x=a)",
    "f(x=1+2)",
    "f(x=--1)",
    "f(x=-True)",
    "f(x=f'{a}')",
    "f(x=set(1))",
    "f(x={[1]: 2})",
    "f(x={**a})",
    "f(x=not 1)",
  ])("refuses %s", (line) => {
    expect(() => kwValue(line)).toThrow();
  });
});
