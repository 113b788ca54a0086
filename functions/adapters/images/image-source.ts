/**
 * Turns the four forms of an image input into bytes, without looking at the bytes themselves:
 *
 * | form                               | example                          | bytes from                 |
 * |------------------------------------|----------------------------------|----------------------------|
 * | `http://` or `https://` URL        | `https://cdn.example/a.jpg`      | the injected fetcher       |
 * | `upload:<upload_id>`               | `upload:upl_3fQ9…`               | the caller's direct upload |
 * | data URI `data:image/<t>;base64,`  | `data:image/png;base64,iVBOR…`   | its base64 payload         |
 * | anything else                      | `iVBORw0KGgo…`                   | bare base64                |
 *
 * Base64 is strict: the standard alphabet (`+/`) or the URL-safe one (`-_`), not both in one string,
 * padding optional but, when present, complete. ASCII spaces, tabs and line breaks are ignored because
 * `base64` tools and MIME/PEM wrap lines at 64 or 76 columns; any other character is refused (Node's
 * decoder would silently skip it and hand us different bytes). The declared type of a data URI is
 * ignored: the format is read from the bytes later.
 */
import { DomainError, InvalidRequestError, NotFoundError } from '../../domain/errors';
import { MAX_UPLOAD_BYTES, UPLOAD_REFERENCE, UPLOAD_REFERENCE_PREFIX } from '../../domain/images/uploads';

export type FetchBytes = (url: string) => Promise<Buffer>;
/** The caller's upload by id, undefined when it is not the caller's, does not exist or has expired. */
export type ReadUpload = (uploadId: string) => Promise<Buffer | undefined>;

export interface ImageSources {
  fetchBytes: FetchBytes;
  /** Absent where uploads are not accepted. */
  readUpload?: ReadUpload;
}

const HTTP_URL = /^https?:\/\//i;
const DATA_IMAGE_BASE64 = /^data:image\/[a-z0-9.+-]+(?:;[a-z0-9.+-]+=[^;,]*)*;base64,/i;
const ANY_SCHEME = /^([a-z][a-z0-9+.-]{0,31}):/i;
const BASE64_WHITESPACE = /[\t\n\r ]+/g;

const tooLarge = (label: string, maxInputBytes: number) =>
  new InvalidRequestError(`${label} is larger than ${maxInputBytes} bytes; send a smaller image.`);

/** The bytes of an image input; refuses empty, malformed and oversized inputs with a 400 naming `label`. */
export const readImageSource = async (
  value: string,
  label: string,
  sources: ImageSources,
  maxInputBytes: number,
): Promise<Buffer> => {
  if (value.trim() === '') throw new InvalidRequestError(`${label} is empty.`);
  if (HTTP_URL.test(value)) {
    if (!URL.canParse(value)) throw new InvalidRequestError(`${label} is not a valid URL.`);
    const bytes = await fetchSource(value, label, sources.fetchBytes);
    if (bytes.length > maxInputBytes) throw tooLarge(label, maxInputBytes);
    return bytes;
  }
  const dataUri = DATA_IMAGE_BASE64.exec(value);
  if (dataUri) return decodeBase64(value.slice(dataUri[0].length), label, maxInputBytes);
  if (/^data:/i.test(value))
    throw new InvalidRequestError(`${label} is a data URI but not of the form data:image/<type>;base64,<data>.`);
  if (value.startsWith(UPLOAD_REFERENCE_PREFIX)) return readUploadSource(value, label, sources.readUpload);
  const scheme = ANY_SCHEME.exec(value);
  if (scheme)
    throw new InvalidRequestError(
      `${label} uses the unsupported scheme "${scheme[1]}:"; send an http(s) URL or base64.`,
    );
  return decodeBase64(value, label, maxInputBytes);
};

const readUploadSource = async (value: string, label: string, readUpload: ReadUpload | undefined): Promise<Buffer> => {
  if (!readUpload) throw new InvalidRequestError(`${label} cannot be a direct upload here; send an http(s) URL.`);
  const uploadId = UPLOAD_REFERENCE.exec(value)?.[1];
  if (!uploadId)
    throw new InvalidRequestError(
      `${label} is not a valid upload reference; use the \`reference\` that POST /uploads answered.`,
    );
  const bytes = await readUpload(uploadId);
  if (!bytes)
    throw new NotFoundError(
      `${label}: upload ${uploadId} not found (uploads belong to the account that made them and expire 24 h after they arrive).`,
    );
  if (bytes.length > MAX_UPLOAD_BYTES) throw tooLarge(label, MAX_UPLOAD_BYTES);
  return bytes;
};

/**
 * The fetcher does not know which input it serves, so its refusals (domain errors, safe to show) are
 * re-issued with the label and the same code. Anything else is a fault of ours and stays a 500.
 */
const fetchSource = async (url: string, label: string, fetchBytes: FetchBytes): Promise<Buffer> => {
  try {
    return await fetchBytes(url);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    const message = `${label} could not be fetched: ${error.message}`;
    throw error instanceof InvalidRequestError
      ? new InvalidRequestError(message)
      : new DomainError(error.code, message);
  }
};

/**
 * Strict base64 without a per-character pass in JavaScript (a regex over a 5 MB string costs 30-50 ms,
 * the decode 1-2 ms). The string is checked with native scans, then decoded, and refused unless the decoder
 * used every character: Node's decoder skips characters outside its alphabet, and `floor(3n / 4)` bytes
 * from `n` characters falls with every character skipped (the length `4k + 1`, the only exception, is
 * refused up front). What the decoder would accept but we refuse is checked before: characters beyond
 * ASCII (it reads only their low byte), both alphabets in one string, and `=` anywhere but the end.
 *
 * Whitespace is looked for only when the text as sent is refused: the decoder skips it like any other
 * character outside the alphabet, so a text holding some is never accepted as it is, and the four scans
 * that find it are spent only on wrapped text (and on text refused anyway). Every decision is then taken
 * on the text without whitespace, as if it had been stripped first.
 */
const decodeBase64 = (text: string, label: string, maxInputBytes: number): Buffer => {
  try {
    return decodeCompactBase64(text, label, maxInputBytes);
  } catch (refusal) {
    if (!hasBase64Whitespace(text)) throw refusal;
    return decodeCompactBase64(text.replace(BASE64_WHITESPACE, ''), label, maxInputBytes);
  }
};

/** `compact`: base64 without whitespace, or refused. */
const decodeCompactBase64 = (compact: string, label: string, maxInputBytes: number): Buffer => {
  if (compact === '') throw new InvalidRequestError(`${label} is empty.`);
  const invalid = () => new InvalidRequestError(`${label} is neither an http(s) URL nor valid base64.`);
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  const unpaddedLength = compact.length - padding;
  if (compact.length % 4 === 1 || (padding > 0 && compact.length % 4 !== 0)) throw invalid();
  if (compact.slice(0, unpaddedLength).includes('=')) throw invalid();
  if (Buffer.byteLength(compact, 'utf8') !== compact.length) throw invalid();
  const standard = compact.includes('+') || compact.includes('/');
  const urlSafe = compact.includes('-') || compact.includes('_');
  if (standard && urlSafe) throw invalid();
  const expectedLength = Math.floor((unpaddedLength * 3) / 4);
  // Checked before decoding so that an oversized string never becomes a second, larger allocation.
  if (expectedLength > maxInputBytes) throw tooLarge(label, maxInputBytes);
  // Node's 'base64' decoder reads both alphabets, with or without padding.
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length !== expectedLength) throw invalid();
  return bytes;
};

const hasBase64Whitespace = (text: string): boolean =>
  text.includes('\n') || text.includes(' ') || text.includes('\r') || text.includes('\t');
