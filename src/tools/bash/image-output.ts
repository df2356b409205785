// A command whose output is an image — PNG or JPEG bytes on stdout (`cat plot.png`, a chart
// renderer writing to stdout) or one data URI (`data:image/png;base64,...`) — gives the model the
// image as an image block, scaled and re-encoded as Read does, instead of bytes that mean nothing
// as text. Only output that is the image as a whole counts: a log line that mentions a data URI
// among other text stays text.

export interface ImageOutput {
  bytes: Buffer;
  mediaType: "image/png" | "image/jpeg" | "image/gif" | "image/webp";
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);
const DATA_URI = /^data:(image\/(?:png|jpeg|gif|webp));base64,([A-Za-z0-9+/=\s]+)$/;
/** A data URI longer than this is not looked at (it would not fit the model's image budget anyway). */
const MAX_DATA_URI_CHARS = 30 * 1024 * 1024;

export function detectImageOutput(raw: Buffer | undefined): ImageOutput | undefined {
  if (!raw || raw.length < 8) return undefined;
  if (raw.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC)) return { bytes: raw, mediaType: "image/png" };
  if (raw.subarray(0, JPEG_MAGIC.length).equals(JPEG_MAGIC)) return { bytes: raw, mediaType: "image/jpeg" };
  if (raw.length > MAX_DATA_URI_CHARS || raw.subarray(0, 11).toString("latin1") !== "data:image/") return undefined;
  const match = DATA_URI.exec(raw.toString("latin1").trim());
  if (!match) return undefined;
  const bytes = Buffer.from((match[2] as string).replace(/\s+/g, ""), "base64");
  return bytes.length ? { bytes, mediaType: match[1] as ImageOutput["mediaType"] } : undefined;
}

export interface ImageForModel {
  base64: string;
  mediaType: string;
  /** What the model reads beside the image. */
  note: string;
}

/** The image scaled for the model, or undefined when its bytes are not an image sharp can read. */
export async function imageOutputForModel(image: ImageOutput): Promise<ImageForModel | undefined> {
  try {
    const { imageForModel } = await import("../file-shared/image-for-model.js");
    const prepared = await imageForModel(image.bytes, image.mediaType);
    const size =
      prepared.width !== prepared.originalWidth || prepared.height !== prepared.originalHeight
        ? `${prepared.originalWidth}x${prepared.originalHeight}, scaled to ${prepared.width}x${prepared.height}`
        : `${prepared.width}x${prepared.height}`;
    return {
      base64: prepared.base64,
      mediaType: prepared.mediaType,
      note: `The command printed an image (${image.mediaType}, ${image.bytes.length} bytes, ${size}); it is attached.`,
    };
  } catch {
    return undefined;
  }
}
