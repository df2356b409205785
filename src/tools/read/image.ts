// Read's images: the scaling and re-encoding live in file-shared/image-for-model.ts, shared with
// Bash's image output.
export { IMAGE_MEDIA_TYPES, type ImageReadResult, readImageForModel } from "../file-shared/image-for-model.js";
