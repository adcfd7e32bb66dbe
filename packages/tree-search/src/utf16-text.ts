/**
 * A file that starts with a UTF-16 byte-order mark is searched as the text it
 * holds, as ripgrep transcodes it and as `read` decodes it: its UTF-8 bytes
 * go to the matcher and the binary check, so a NUL in the text still makes it
 * binary, and the zero bytes of ASCII in UTF-16 do not. An odd last byte or a
 * lone surrogate becomes U+FFFD, as ripgrep's transcoding does.
 */
export function utf16Order(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** The text of a UTF-16 file with a BOM, as UTF-8 bytes without the BOM; undefined for any other file. */
export function utf16AsUtf8(bytes: Buffer): Buffer | undefined {
  const order = utf16Order(bytes);
  if (order === undefined) return undefined;
  return Buffer.from(new TextDecoder(order, { ignoreBOM: false }).decode(bytes), 'utf8');
}
