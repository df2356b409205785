// Images (a file Read opens, bytes a Bash command prints) go to the model as image blocks, scaled and re-encoded to fit what a provider accepts
// (about 5 MB of base64 and a long edge the model sees at full detail). sharp is loaded only when
// an image is actually read.
import { readFile } from "node:fs/promises";

const MAX_EDGE = 2000;
/** base64 grows bytes by 4/3: 3.75 MB of image is 5 MB of base64. */
const MAX_IMAGE_BYTES = Math.floor((5 * 1024 * 1024 * 3) / 4);

export const IMAGE_MEDIA_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

export interface ImageReadResult {
  base64: string;
  mediaType: string;
  originalWidth?: number;
  originalHeight?: number;
  width?: number;
  height?: number;
  originalBytes: number;
}

export async function readImageForModel(filePath: string, mediaType: string): Promise<ImageReadResult> {
  try {
    return await imageForModel(await readFile(filePath), mediaType);
  } catch (error) {
    throw new Error(`${filePath}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** An image's bytes as the model may receive them (Bash's image output shares this with Read). */
export async function imageForModel(original: Buffer, mediaType: string): Promise<ImageReadResult> {
  const { default: sharp } = await import("sharp");
  const meta = await sharp(original, { animated: false }).metadata();
  const width = meta.width;
  const height = meta.height;
  const fits = (width ?? 0) <= MAX_EDGE && (height ?? 0) <= MAX_EDGE && original.length <= MAX_IMAGE_BYTES;
  if (fits) {
    return {
      base64: original.toString("base64"),
      mediaType,
      originalWidth: width,
      originalHeight: height,
      width,
      height,
      originalBytes: original.length,
    };
  }
  const resized = () =>
    sharp(original, { animated: false })
      .rotate()
      .resize(MAX_EDGE, MAX_EDGE, { fit: "inside", withoutEnlargement: true });
  // Keep the format when the result fits; otherwise step down JPEG quality, and as a last resort
  // send a small thumbnail rather than nothing.
  const attempts: Array<() => Promise<{ data: Buffer; info: { width: number; height: number }; type: string }>> = [
    async () => ({ ...(await resized().png().toBuffer({ resolveWithObject: true })), type: "image/png" }),
    async () => ({
      ...(await resized().jpeg({ quality: 80 }).toBuffer({ resolveWithObject: true })),
      type: "image/jpeg",
    }),
    async () => ({
      ...(await resized().jpeg({ quality: 50 }).toBuffer({ resolveWithObject: true })),
      type: "image/jpeg",
    }),
    async () => ({
      ...(await sharp(original, { animated: false })
        .resize(400, 400, { fit: "inside" })
        .jpeg({ quality: 20 })
        .toBuffer({ resolveWithObject: true })),
      type: "image/jpeg",
    }),
  ];
  if (mediaType === "image/jpeg") attempts.shift();
  for (const attempt of attempts) {
    const { data, info, type } = await attempt();
    if (data.length <= MAX_IMAGE_BYTES || attempt === attempts[attempts.length - 1]) {
      return {
        base64: data.toString("base64"),
        mediaType: type,
        originalWidth: width,
        originalHeight: height,
        width: info.width,
        height: info.height,
        originalBytes: original.length,
      };
    }
  }
  throw new Error("Could not fit the image into the image size budget.");
}
