// The Headers and FormData the provider SDKs get in the built CLI instead of Node's globals
// (src/providers/sdk-headers.ts): they must read and write headers as the Fetch standard does, and
// `instanceof` must keep recognising Node's own objects.
import { describe, expect, it } from "vitest";
import { FormData as SdkFormData, Headers as SdkHeaders } from "../../src/providers/sdk-headers.js";

describe("the SDKs' Headers", () => {
  it("keeps names case-insensitive and combines repeated values", () => {
    const headers = new SdkHeaders({ "Content-Type": "application/json" });
    headers.append("X-Beta", "a");
    headers.append("x-beta", "b");
    expect(headers.get("content-type")).toBe("application/json");
    expect(headers.get("X-BETA")).toBe("a, b");
    expect(headers.has("x-beta")).toBe(true);
    headers.set("x-beta", "c");
    expect(headers.get("x-beta")).toBe("c");
    headers.delete("X-Beta");
    expect(headers.has("x-beta")).toBe(false);
    expect(headers.get("x-beta")).toBeNull();
  });

  it("iterates in name order, lower-cased, each set-cookie on its own, as Node's Headers does", () => {
    const init: Array<[string, string]> = [
      ["Zeta", "1"],
      ["set-cookie", "a=1"],
      ["Alpha", " 2 "],
      ["Set-Cookie", "b=2"],
    ];
    const ours = new SdkHeaders(init);
    const nodes = new Headers(init);
    expect([...ours]).toEqual([...nodes]);
    expect([...ours.keys()]).toEqual([...nodes.keys()]);
    expect([...ours.values()]).toEqual([...nodes.values()]);
    expect(ours.get("set-cookie")).toBe(nodes.get("set-cookie"));
    expect(ours.getSetCookie()).toEqual(["a=1", "b=2"]);
    const seen: string[] = [];
    ours.forEach((value, name) => {
      seen.push(`${name}=${value}`);
    });
    expect(seen).toEqual(["alpha=2", "set-cookie=a=1", "set-cookie=b=2", "zeta=1"]);
  });

  it("copies from Node's Headers, from pairs and from a record", () => {
    expect(new SdkHeaders(new Headers({ a: "1" })).get("a")).toBe("1");
    expect(new SdkHeaders([["b", "2"]]).get("b")).toBe("2");
    expect(new SdkHeaders({ c: "3" }).get("c")).toBe("3");
    expect(new Headers(new SdkHeaders({ d: "4" })).get("d")).toBe("4");
  });

  it("refuses a name that is not a token and a value that would split the header", () => {
    expect(() => new SdkHeaders({ "bad name": "x" })).toThrow(TypeError);
    expect(() => new SdkHeaders().set("x-a", "one\r\nx-injected: two")).toThrow(TypeError);
    expect(() => new SdkHeaders([["only-a-name"] as unknown as [string, string]])).toThrow(TypeError);
  });

  it("counts Node's Headers and its own as instances, and nothing else", () => {
    expect(new SdkHeaders() instanceof SdkHeaders).toBe(true);
    expect(new Headers() instanceof SdkHeaders).toBe(true);
    expect({ get: () => null } instanceof SdkHeaders).toBe(false);
    expect(new Map() instanceof SdkHeaders).toBe(false);
  });
});

describe("the SDKs' FormData", () => {
  it("recognises Node's FormData and builds one when asked", () => {
    const made = new SdkFormData();
    made.append("field", "value");
    expect(made.get("field")).toBe("value");
    expect(made instanceof SdkFormData).toBe(true);
    expect(new globalThis.FormData() instanceof SdkFormData).toBe(true);
    expect(("a string body" as unknown) instanceof SdkFormData).toBe(false);
    expect(new Uint8Array(1) instanceof SdkFormData).toBe(false);
  });
});
