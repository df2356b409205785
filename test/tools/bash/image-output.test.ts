// A command that prints an image (PNG/JPEG bytes, or a data URI) hands the model an image block,
// scaled as Read scales images; other output stays text.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ToolResultBlock } from "../../../src/messages/types.js";
import { createSession, type Session } from "./harness.js";

let session: Session;
beforeEach(() => {
  session = createSession();
});
afterEach(async () => {
  await session.cleanup();
});

function solid(width: number, height: number) {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 30 } } });
}

function imageOf(result: ToolResultBlock): { mediaType: string; data: Buffer; text: string } | undefined {
  if (!Array.isArray(result.content)) return undefined;
  const image = result.content.find((block) => block.type === "image");
  const text = result.content.find((block) => block.type === "text");
  if (image?.type !== "image" || image.source.type !== "base64") return undefined;
  return {
    mediaType: image.source.media_type,
    data: Buffer.from(image.source.data, "base64"),
    text: text?.type === "text" ? text.text : "",
  };
}

describe("image output of a Bash command", () => {
  it("PNG bytes on stdout become an image block, scaled down as Read scales", async () => {
    writeFileSync(join(session.project, "wide.png"), await solid(3000, 1000).png().toBuffer());
    const image = imageOf(await session.run("Bash", { command: "cat wide.png" }));
    expect(image?.mediaType).toBe("image/png");
    expect(image?.text).toContain("3000x1000, scaled to 2000x667");
    const meta = await sharp(image?.data as Buffer).metadata();
    expect([meta.width, meta.height]).toEqual([2000, 667]);
  });

  it("JPEG bytes become a JPEG image block", async () => {
    writeFileSync(join(session.project, "photo.jpg"), await solid(64, 48).jpeg().toBuffer());
    const image = imageOf(await session.run("Bash", { command: "cat photo.jpg" }));
    expect(image?.mediaType).toBe("image/jpeg");
    expect((await sharp(image?.data as Buffer).metadata()).width).toBe(64);
  });

  it("a data URI printed by the command becomes the image it encodes", async () => {
    writeFileSync(join(session.project, "dot.png"), await solid(10, 20).png().toBuffer());
    const image = imageOf(
      await session.run("Bash", { command: `printf 'data:image/png;base64,%s\\n' "$(base64 -w0 dot.png)"` }),
    );
    expect(image?.mediaType).toBe("image/png");
    const meta = await sharp(image?.data as Buffer).metadata();
    expect([meta.width, meta.height]).toEqual([10, 20]);
  });

  it("text that merely mentions a data URI stays text", async () => {
    const result = await session.run("Bash", { command: "echo 'logo: data:image/png;base64,iVBORw0KGgo='" });
    expect(typeof result.content).toBe("string");
    expect(result.content).toContain("logo: data:image/png");
  });
});
