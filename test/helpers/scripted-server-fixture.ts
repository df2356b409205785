// The preamble most model tests share, in one line: a scripted model server started before each
// test (or once for the file) and closed after it.
//
//   const server = scriptedModelServerFixture();         // a fresh server for each test
//   const server = scriptedModelServerFixture("file");   // one server for the whole file
//
// The value is a stand-in that forwards to the server of the moment, so tests use it as they would
// the server itself (server.enqueue(...), server.anthropicBaseURL, server.requests).
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import { type ScriptedModelServer, startScriptedModelServer } from "./scripted-model-server.js";

export function scriptedModelServerFixture(scope: "test" | "file" = "test"): ScriptedModelServer {
  let current: ScriptedModelServer | undefined;
  const start = async () => {
    current = await startScriptedModelServer();
  };
  const stop = async () => {
    await current?.close();
    current = undefined;
  };
  if (scope === "test") {
    beforeEach(start);
    afterEach(stop);
  } else {
    beforeAll(start);
    afterAll(stop);
  }
  return new Proxy({} as ScriptedModelServer, {
    get(_target, property) {
      if (!current) throw new Error("the scripted model server is used outside a test (it runs only during one)");
      const value = Reflect.get(current, property, current);
      return typeof value === "function" ? value.bind(current) : value;
    },
  });
}
