// The model picked in the editor: `warden acp` offers the model (and the mode) as ACP config
// options, and session/set_config_option switches the model from the next request, as Claude
// Code's ACP agent does. Driven by the official ACP SDK's client side against a scripted model
// server, so the switch is seen in the model name the next request really carries.
import * as acp from "@agentclientprotocol/sdk/unstable";
import { describe, expect, it } from "vitest";
import { reply } from "../helpers/scripted-model-server.js";
import { scriptedModelServerFixture } from "../helpers/scripted-server-fixture.js";
import { editorProject, startEditor, updatesOf } from "./editor-client.js";

const server = scriptedModelServerFixture();

describe("warden acp: the model and mode pickers", () => {
  it("offers the model as a config option and switches it from the next request", async () => {
    const { home, project } = editorProject("warden-acp-model-picker-");
    server.enqueue(reply().text("from sonnet"), reply().text("from opus"));
    const editor = startEditor(["--model", "anthropic:claude-sonnet-4-6"], {
      cwd: project,
      home,
      env: { ANTHROPIC_API_KEY: "test", ANTHROPIC_BASE_URL: server.anthropicBaseURL },
    });
    const code = await editor.run(async (agent) => {
      await agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      const created = await agent.request(acp.methods.agent.session.new, { cwd: project, mcpServers: [] });
      const { sessionId } = created;
      const model = created.configOptions?.find((option) => option.id === "model");
      expect(model).toMatchObject({ category: "model", type: "select", currentValue: "anthropic:claude-sonnet-4-6" });
      const values =
        model?.type === "select" ? model.options.map((option) => ("value" in option ? option.value : "")) : [];
      expect(values).toContain("opus");
      expect(created.configOptions?.find((option) => option.id === "mode")).toMatchObject({ currentValue: "default" });

      await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "one" }] });

      // A name no provider takes is refused with the reason, and nothing changes.
      const bad = await agent
        .request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "model", value: "nosuch:thing" })
        .catch((error: unknown) => error);
      expect(bad).toBeInstanceOf(acp.RequestError);
      expect((bad as acp.RequestError).code).toBe(-32602);
      expect((bad as acp.RequestError).message).toMatch(/nosuch/);

      const switched = await agent.request(acp.methods.agent.session.setConfigOption, {
        sessionId,
        configId: "model",
        value: "opus",
      });
      expect(switched.configOptions.find((option) => option.id === "model")?.currentValue).toMatch(/opus/);
      await agent.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "two" }] });

      // The mode through the same request: the editor's mode picker is told as after session/set_mode.
      await agent.request(acp.methods.agent.session.setConfigOption, { sessionId, configId: "mode", value: "plan" });
      expect(updatesOf(editor.updates, "current_mode_update").at(-1)?.currentModeId).toBe("plan");
    });
    expect(code, editor.stderr()).toBe(0);
    expect(server.requests.map((request) => (request.body as { model: string }).model)).toEqual([
      "claude-sonnet-4-6",
      "claude-opus-4-6",
    ]);
  }, 60_000);
});
