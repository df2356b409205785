// Extensions Read refuses without opening the file: archives, executables, media and other formats
// whose bytes mean nothing as text (images and PDFs have their own readers and are not listed).
export const BINARY_EXTENSIONS = new Set([
  ".zip", ".gz", ".tgz", ".bz2", ".xz", ".7z", ".rar", ".tar", ".zst",
  ".exe", ".dll", ".so", ".dylib", ".o", ".a", ".lib", ".obj", ".class", ".jar", ".war", ".pyc", ".pyo", ".wasm", ".node",
  ".bin", ".dat", ".db", ".sqlite", ".sqlite3",
  ".mp3", ".mp4", ".mov", ".avi", ".mkv", ".wav", ".flac", ".ogg", ".webm", ".m4a",
  ".bmp", ".ico", ".tif", ".tiff", ".psd", ".heic",
  ".ttf", ".otf", ".woff", ".woff2", ".eot",
  ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".odt",
  ".iso", ".dmg", ".img", ".deb", ".rpm",
]);
