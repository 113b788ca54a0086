/**
 * Base64 of large byte arrays (an output image answered as bytes), the same text `toString('base64')`
 * gives, built so that it does not cost the process a garbage collection.
 *
 * Node hands back the base64 of more than ~774 KB (a string longer than 1 031 913 characters, its
 * EXTERN_APEX) as an external string: its characters live outside the JavaScript heap, the string is
 * allocated in the old generation, and its size is reported to V8 as external memory, which starts
 * incremental marking and advances it at every further report. One 2K JPEG answered as bytes (1-2 MB) cost
 * the sync path about 25 ms of main-thread marking per request that way, more than the bare sharp
 * pipeline it is compared with spends outside libvips (bench/images.bench.ts). Pieces under that size are
 * ordinary heap strings that a scavenge frees, and joined they are the same text: a piece a multiple of
 * 3 bytes long encodes to whole 4-character groups, so no padding falls inside the joined string.
 */

/** Bytes per piece: a multiple of 3 (whole base64 groups) whose text (256 KiB of characters) stays a heap string. */
export const BASE64_PIECE_BYTES = 3 * 65_536;

export const base64Of = (bytes: Buffer): string => {
  if (bytes.length <= BASE64_PIECE_BYTES) return bytes.toString('base64');
  let text = '';
  for (let offset = 0; offset < bytes.length; offset += BASE64_PIECE_BYTES) {
    text += bytes.toString('base64', offset, Math.min(offset + BASE64_PIECE_BYTES, bytes.length));
  }
  return text;
};
